/**
 * Contract tests of multi-value enum filters on lists (docs/design.md, "Conventions on the wire", Lists): a filter
 * repeated (`status=AT_RISK&status=OFF_TRACK`, `explode: true`) matches any of its values, filters combine with AND,
 * one value still works, the total stays exact either way (docs/design.md, "List totals"), and a comma-separated
 * value or one value too many is a 400 problem naming the parameter.
 */
import { expect } from 'chai';
import { expectProblem } from '../support/assertions.js';
import type { Api } from '../support/client.js';
import { makeProject, makeRisk } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

/** The ids of a list's page and its total, asserting 200. */
async function listed(
  api: Api,
  operationId: 'listProjects' | 'listRisks' | 'listIssues' | 'listProjectMilestones',
  path: string,
  query: Record<string, string | readonly string[]>,
): Promise<{ ids: string[]; total: number }> {
  const res = await api.get(operationId, path, { query });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return { ids: res.body.data.map((r: { id: string }) => r.id), total: res.body.pagination.total };
}

describe('Lists: multi-value enum filters', () => {
  const ctx = contractSuite();

  it('lists projects with any of the statuses given, with an exact total', async () => {
    const planned = await makeProject(ctx.api);
    const atRisk = await makeProject(ctx.api, { status: 'AT_RISK' });
    const offTrack = await makeProject(ctx.api, { status: 'OFF_TRACK' });
    await makeProject(ctx.api, { status: 'COMPLETED' });
    const both = await listed(ctx.api, 'listProjects', '/projects', { status: ['AT_RISK', 'OFF_TRACK'] });
    expect(both).to.deep.equal({ ids: [atRisk.id, offTrack.id], total: 2 });
    const one = await listed(ctx.api, 'listProjects', '/projects', { status: 'AT_RISK' });
    expect(one).to.deep.equal({ ids: [atRisk.id], total: 1 });
    const paged = await ctx.api.get('listProjects', '/projects', {
      query: { status: ['PLANNED', 'OFF_TRACK'], limit: 1 },
    });
    expect(paged.body.data.map((p: { id: string }) => p.id)).to.deep.equal([planned.id]);
    expect(paged.body.pagination).to.include({ total: 2, hasMore: true });
    expect(paged.headers.get('link')).to.contain('status=PLANNED&status=OFF_TRACK');
  });

  it('combines the values of one filter with OR and filters with AND (risks)', async () => {
    const project = await makeProject(ctx.api);
    const other = await makeProject(ctx.api);
    const openHigh = await makeRisk(ctx.api, project.id, { likelihood: 3, impact: 4 });
    const mitigatingCritical = await makeRisk(ctx.api, project.id, {
      likelihood: 5,
      impact: 5,
      status: 'MITIGATING',
    });
    await makeRisk(ctx.api, project.id, { likelihood: 1, impact: 1, status: 'MITIGATING' });
    const closed = await makeRisk(ctx.api, project.id, { likelihood: 5, impact: 5, status: 'CLOSED' });
    const elsewhere = await makeRisk(ctx.api, other.id, { likelihood: 3, impact: 4 });
    const query = { status: ['OPEN', 'MITIGATING'], severity: ['HIGH', 'CRITICAL'] };
    expect(await listed(ctx.api, 'listRisks', '/risks', query)).to.deep.equal({
      ids: [openHigh.id, mitigatingCritical.id, elsewhere.id],
      total: 3,
    });
    expect(await listed(ctx.api, 'listRisks', '/risks', { ...query, projectId: project.id })).to.deep.equal({
      ids: [openHigh.id, mitigatingCritical.id],
      total: 2,
    });
    expect(await listed(ctx.api, 'listRisks', '/risks', { severity: ['HIGH', 'CRITICAL'] })).to.deep.equal({
      ids: [openHigh.id, mitigatingCritical.id, closed.id, elsewhere.id],
      total: 4,
    });
  });

  it('filters issues by statuses and priorities, and milestones by statuses', async () => {
    const project = await makeProject(ctx.api);
    const issue = async (body: Record<string, unknown>) =>
      (await ctx.api.post('createIssue', '/issues', { body: { projectId: project.id, title: 'I', ...body } }))
        .body.id as string;
    const a = await issue({ priority: 'HIGH' });
    const b = await issue({ status: 'IN_PROGRESS', priority: 'CRITICAL' });
    await issue({ status: 'CLOSED', priority: 'HIGH' });
    await issue({ priority: 'LOW' });
    const query = { status: ['OPEN', 'IN_PROGRESS'], priority: ['HIGH', 'CRITICAL'] };
    expect(await listed(ctx.api, 'listIssues', '/issues', query)).to.deep.equal({ ids: [a, b], total: 2 });

    const milestone = async (status: string) =>
      (
        await ctx.api.post('createMilestone', `/projects/${project.id}/milestones`, {
          body: { name: `M ${status}`, dueDate: '2026-09-01', status },
        })
      ).body.id as string;
    const pending = await milestone('PENDING');
    await milestone('COMPLETED');
    const missed = await milestone('MISSED');
    const path = `/projects/${project.id}/milestones`;
    expect(
      await listed(ctx.api, 'listProjectMilestones', path, { status: ['PENDING', 'MISSED'] }),
    ).to.deep.equal({
      ids: [pending, missed],
      total: 2,
    });
  });

  it('refuses a comma-separated value and too many values with a 400 naming the parameter', async () => {
    const comma = await ctx.api.get('listProjects', '/projects', { query: { status: 'AT_RISK,OFF_TRACK' } });
    expectProblem(comma, 400, 'validation_failed');
    expect(comma.body.detail).to.contain('query status').and.contain('allowed values');
    const tooMany = await ctx.api.get('listRisks', '/risks', {
      query: { severity: ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL', 'LOW'] },
    });
    expectProblem(tooMany, 400, 'validation_failed');
    expect(tooMany.body.detail).to.contain('query severity must NOT have more than 4 items');
  });
});
