/**
 * Contract tests of retrieving many records by id in one call (`id=…&id=…`, up to the page maximum of 100) on the
 * lists of the records an answer cites: unknown ids and other tenants' ids are simply absent (never a 404, never
 * leaked), `id` combines with the other filters by AND, and the page keeps the list's order.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { OperationId } from '../../generated/operations.js';
import { expectProblem } from '../support/assertions.js';
import { type Api, client } from '../support/client.js';
import { makeProject, makeResource, makeRisk } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

/** The ids of a list's page and its total, asserting 200. */
async function listed(
  api: Api,
  operationId: OperationId,
  path: string,
  query: Record<string, string | readonly string[]>,
): Promise<{ ids: string[]; total: number }> {
  const res = await api.get(operationId, path, { query });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return { ids: res.body.data.map((r: { id: string }) => r.id), total: res.body.pagination.total };
}

describe('Lists: records by id', () => {
  const ctx = contractSuite();

  it('lists the projects asked for in the list order; unknown and other tenants’ ids are absent', async () => {
    const [a, b, c] = [await makeProject(ctx.api), await makeProject(ctx.api), await makeProject(ctx.api)];
    const other = await ctx.server.createTenant();
    const theirs = await makeProject(client(ctx.server.baseUrl, other.keys.write));
    const asked = [c.id, randomUUID(), theirs.id, a.id];
    expect(await listed(ctx.api, 'listProjects', '/projects', { id: asked })).to.deep.equal({
      ids: [a.id, c.id],
      total: 2,
    });
    expect(await listed(ctx.api, 'listProjects', '/projects', { id: b.id })).to.deep.equal({
      ids: [b.id],
      total: 1,
    });
    // Only unknown ids: an empty page, not a 404.
    expect(await listed(ctx.api, 'listProjects', '/projects', { id: [theirs.id] })).to.deep.equal({
      ids: [],
      total: 0,
    });
    // With another filter: AND.
    await ctx.api.patch('updateProject', `/projects/${c.id}`, { body: { status: 'AT_RISK' } });
    const both = { id: [a.id, c.id], status: ['AT_RISK'] };
    expect(await listed(ctx.api, 'listProjects', '/projects', both)).to.deep.equal({ ids: [c.id], total: 1 });
    // Sorted lists keep their order.
    const sorted = await listed(ctx.api, 'listProjects', '/projects', {
      id: [a.id, c.id],
      sort: '-createdAt',
    });
    expect(sorted.ids).to.deep.equal([c.id, a.id]);
  });

  it('lists risks, issues, resources, allocations and status reports by id', async () => {
    const project = await makeProject(ctx.api, { startDate: '2026-01-05', endDate: '2026-12-18' });
    const other = await makeProject(ctx.api);
    const risks = [await makeRisk(ctx.api, project.id), await makeRisk(ctx.api, other.id)];
    const risksOfProject = { id: risks.map((r) => r.id), projectId: project.id };
    expect(await listed(ctx.api, 'listRisks', '/risks', risksOfProject)).to.deep.equal({
      ids: [risks[0].id],
      total: 1,
    });
    const issue = async () =>
      (await ctx.api.post('createIssue', '/issues', { body: { projectId: project.id, title: 'I' } })).body.id;
    const issues = [await issue(), await issue(), await issue()];
    expect(await listed(ctx.api, 'listIssues', '/issues', { id: [issues[2], issues[0]] })).to.deep.equal({
      ids: [issues[0], issues[2]],
      total: 2,
    });
    const resource = await makeResource(ctx.api);
    await makeResource(ctx.api);
    expect(await listed(ctx.api, 'listResources', '/resources', { id: [resource.id] })).to.deep.equal({
      ids: [resource.id],
      total: 1,
    });
    const allocation = await ctx.api.post('createAllocation', '/allocations', {
      body: {
        resourceId: resource.id,
        projectId: project.id,
        startDate: '2026-06-01',
        endDate: '2026-06-30',
        allocationPercent: 50,
      },
    });
    expect(allocation.status, JSON.stringify(allocation.body)).to.equal(201);
    const allocations = { id: [allocation.body.id, randomUUID()] };
    expect(await listed(ctx.api, 'listAllocations', '/allocations', allocations)).to.deep.equal({
      ids: [allocation.body.id],
      total: 1,
    });
    const report = async (asOf: string) =>
      (
        await ctx.api.post('createStatusReport', `/projects/${project.id}/status-reports`, {
          body: { asOf, status: 'ON_TRACK', progress: 10 },
        })
      ).body.id as string;
    const older = await report('2026-02-01');
    await report('2026-03-01');
    const newer = await report('2026-04-01');
    // Status reports are listed newest first: that order, whatever the order asked.
    expect(
      await listed(ctx.api, 'listStatusReports', '/status-reports', { id: [older, newer] }),
    ).to.deep.equal({
      ids: [newer, older],
      total: 2,
    });
  });

  it('refuses more than 100 ids and an id that is not a UUID with a 400 naming the parameter', async () => {
    const many = Array.from({ length: 101 }, () => randomUUID());
    const tooMany = await ctx.api.get('listRisks', '/risks', { query: { id: many } });
    expect(expectProblem(tooMany, 400, 'validation_failed').detail).to.contain(
      'query id must NOT have more than 100',
    );
    const hundred = await listed(ctx.api, 'listRisks', '/risks', { id: many.slice(0, 100) });
    expect(hundred).to.deep.equal({ ids: [], total: 0 });
    const notUuid = await ctx.api.get('listProjects', '/projects', { query: { id: ['nope'] } });
    expect(expectProblem(notUuid, 400, 'validation_failed').detail).to.contain('query id.0');
  });
});
