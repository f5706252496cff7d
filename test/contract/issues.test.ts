/**
 * Contract tests of the Issues tag.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ManualClock } from '../../server/clock.js';
import { expectProblem } from '../support/assertions.js';
import { client } from '../support/client.js';
import { makeProject } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

describe('Issues', () => {
  const clock = new ManualClock('2026-05-04T08:30:00.000Z');
  const ctx = contractSuite({ clock });
  let project: { id: string };
  beforeEach(async () => {
    project = await makeProject(ctx.api);
  });

  const create = (body: Record<string, unknown>) =>
    ctx.api.post('createIssue', '/issues', {
      body: { projectId: project.id, title: 'Crane delivery late', ...body },
    });

  it('creates an issue (201, Location, ETag) with OPEN and MEDIUM by default', async () => {
    const res = await create({ dueDate: '2026-05-20' });
    expect(res.status).to.equal(201);
    expect(res.body).to.include({
      projectId: project.id,
      title: 'Crane delivery late',
      description: null,
      status: 'OPEN',
      priority: 'MEDIUM',
      assigneeId: null,
      dueDate: '2026-05-20',
      resolvedAt: null,
      version: 1,
    });
    expect(res.headers.get('location')).to.equal(`/v1/issues/${res.body.id}`);
    const got = await ctx.api.get('getIssue', `/issues/${res.body.id}`);
    expect(got.body).to.deep.equal(res.body);
    expect(got.headers.get('etag')).to.equal('"1"');
  });

  it('sets resolvedAt on RESOLVED or CLOSED, keeps it between them, clears it on reopen', async () => {
    const issue = (await create({})).body;
    const patch = (body: Record<string, unknown>) =>
      ctx.api.patch('updateIssue', `/issues/${issue.id}`, { body });
    expect((await patch({ status: 'IN_PROGRESS' })).body.resolvedAt).to.equal(null);
    clock.advance(60_000);
    expect((await patch({ status: 'RESOLVED' })).body.resolvedAt).to.equal('2026-05-04T08:31:00.000Z');
    clock.advance(60_000);
    expect((await patch({ status: 'CLOSED' })).body.resolvedAt).to.equal('2026-05-04T08:31:00.000Z');
    const reopened = (await patch({ status: 'OPEN' })).body;
    expect(reopened).to.include({ status: 'OPEN', resolvedAt: null, version: 5 });
    expect((await create({ status: 'CLOSED' })).body.resolvedAt).to.equal('2026-05-04T08:32:00.000Z');
  });

  it('filters by projectId, status, priority and assigneeId (each restricts, together AND)', async () => {
    const second = await makeProject(ctx.api);
    const a = (await create({ priority: 'HIGH' })).body;
    const b = (await create({ priority: 'HIGH', status: 'IN_PROGRESS' })).body;
    const c = (
      await ctx.api.post('createIssue', '/issues', {
        body: { projectId: second.id, title: 'Scaffold permit', priority: 'LOW' },
      })
    ).body;
    const ids = async (query: Record<string, string>) =>
      (await ctx.api.get('listIssues', '/issues', { query })).body.data.map((i: { id: string }) => i.id);
    expect(await ids({})).to.deep.equal([a.id, b.id, c.id]);
    expect(await ids({ projectId: project.id })).to.deep.equal([a.id, b.id]);
    expect(await ids({ status: 'IN_PROGRESS' })).to.deep.equal([b.id]);
    expect(await ids({ priority: 'HIGH', status: 'OPEN' })).to.deep.equal([a.id]);
    expect(await ids({ priority: 'LOW', projectId: project.id })).to.deep.equal([]);
    expect(await ids({ assigneeId: randomUUID() })).to.deep.equal([]);
    const page = await ctx.api.get('listIssues', '/issues', { query: { limit: 2, offset: 2 } });
    expect(page.body.pagination).to.deep.equal({ limit: 2, offset: 2, total: 3, hasMore: false });
    expect(page.headers.get('link')).to.match(/rel="prev"/);
  });

  it('refuses unknown projects and assignees (422), other tenants (404), read keys (403) and stale If-Match (412)', async () => {
    expectProblem(await create({ projectId: randomUUID() }), 422, 'validation_failed');
    const noAssignee = await create({ assigneeId: randomUUID() });
    expect(expectProblem(noAssignee, 422, 'validation_failed').errors[0].path).to.equal('/assigneeId');
    const issue = (await create({})).body;
    const other = client(ctx.server.baseUrl, (await ctx.server.createTenant()).keys.admin);
    expectProblem(await other.get('getIssue', `/issues/${issue.id}`), 404, 'not_found');
    expectProblem(
      await other.patch('updateIssue', `/issues/${issue.id}`, { body: { title: 'x' } }),
      404,
      'not_found',
    );
    expect((await other.get('listIssues', '/issues')).body.data).to.deep.equal([]);
    expectProblem(
      await ctx.reader.post('createIssue', '/issues', {
        body: { projectId: project.id, title: 'x' },
      }),
      403,
      'forbidden',
    );
    expectProblem(
      await ctx.api.patch('updateIssue', `/issues/${issue.id}`, {
        body: { title: 'x' },
        headers: { 'If-Match': '"2"' },
      }),
      412,
      'precondition_failed',
    );
    expectProblem(
      await ctx.api.patch('updateIssue', `/issues/${issue.id}`, { body: { projectId: project.id } }),
      400,
      'validation_failed',
    );
    expectProblem(await create({ priority: 'URGENT' }), 400, 'validation_failed');
    const unchanged = await ctx.api.get('getIssue', `/issues/${issue.id}`);
    expect(unchanged.body.version).to.equal(1);
  });
});
