/**
 * Contract tests of the Milestones tag, and milestones in the project detail view.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ManualClock } from '../../server/clock.js';
import { expectProblem } from '../support/assertions.js';
import { client } from '../support/client.js';
import { makeProject } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

describe('Milestones', () => {
  const clock = new ManualClock('2026-04-01T10:00:00.000Z');
  const ctx = contractSuite({ clock });
  let project: { id: string };
  beforeEach(async () => {
    project = await makeProject(ctx.api);
  });

  const create = (body: Record<string, unknown>, projectId = project.id) =>
    ctx.api.post('createMilestone', `/projects/${projectId}/milestones`, { body });

  it('creates a milestone (201, Location, ETag) with defaults and reads it back', async () => {
    const res = await create({ name: 'Design complete', dueDate: '2026-06-30' });
    expect(res.status).to.equal(201);
    expect(res.body).to.include({
      projectId: project.id,
      name: 'Design complete',
      description: null,
      dueDate: '2026-06-30',
      status: 'PENDING',
      completedAt: null,
      version: 1,
    });
    expect(res.headers.get('location')).to.equal(`/v1/milestones/${res.body.id}`);
    expect(res.headers.get('etag')).to.equal('"1"');
    const got = await ctx.api.get('getMilestone', `/milestones/${res.body.id}`);
    expect(got.body).to.deep.equal(res.body);
  });

  it('records completedAt when created or moved to COMPLETED, and clears it when moved away', async () => {
    const done = await create({ name: 'Permit', dueDate: '2026-05-01', status: 'COMPLETED' });
    expect(done.body.completedAt).to.equal('2026-04-01T10:00:00.000Z');
    const m = (await create({ name: 'Foundations', dueDate: '2026-07-01' })).body;
    clock.advance(3_600_000);
    const completed = await ctx.api.patch('updateMilestone', `/milestones/${m.id}`, {
      body: { status: 'COMPLETED' },
    });
    expect(completed.body.completedAt).to.equal('2026-04-01T11:00:00.000Z');
    clock.advance(3_600_000);
    const renamed = await ctx.api.patch('updateMilestone', `/milestones/${m.id}`, {
      body: { name: 'Foundations poured' },
    });
    expect(renamed.body.completedAt).to.equal('2026-04-01T11:00:00.000Z');
    const reopened = await ctx.api.patch('updateMilestone', `/milestones/${m.id}`, {
      body: { status: 'PENDING' },
    });
    expect(reopened.body).to.include({ status: 'PENDING', completedAt: null, version: 4 });
  });

  it('lists a project’s milestones in creation order with the status filter and pagination', async () => {
    const ids: string[] = [];
    for (const [i, status] of ['PENDING', 'COMPLETED', 'PENDING', 'MISSED'].entries()) {
      ids.push((await create({ name: `M${i}`, dueDate: `2026-0${9 - i}-01`, status })).body.id);
    }
    const all = await ctx.api.get('listProjectMilestones', `/projects/${project.id}/milestones`, {
      query: { limit: 3 },
    });
    expect(all.body.data.map((m: { id: string }) => m.id)).to.deep.equal(ids.slice(0, 3));
    expect(all.body.pagination).to.deep.equal({ limit: 3, offset: 0, total: 4, hasMore: true });
    expect(all.headers.get('link')).to.match(/rel="next"/);
    const pending = await ctx.api.get('listProjectMilestones', `/projects/${project.id}/milestones`, {
      query: { status: 'PENDING' },
    });
    expect(pending.body.data.map((m: { id: string }) => m.id)).to.deep.equal([ids[0], ids[2]]);
    // The detail view shows them by due date.
    const detail = await ctx.api.get('getProject', `/projects/${project.id}`);
    expect(detail.body.milestones.map((m: { id: string }) => m.id)).to.deep.equal([...ids].reverse());
  });

  it('changes only the fields sent, honours If-Match, and deletes with 204', async () => {
    const m = (await create({ name: 'Topping out', dueDate: '2026-10-01', description: 'Crane' })).body;
    const stale = await ctx.api.patch('updateMilestone', `/milestones/${m.id}`, {
      body: { name: 'x' },
      headers: { 'If-Match': '"7"' },
    });
    expectProblem(stale, 412, 'precondition_failed');
    const moved = await ctx.api.patch('updateMilestone', `/milestones/${m.id}`, {
      body: { dueDate: '2026-10-15' },
      headers: { 'If-Match': '"1"' },
    });
    expect(moved.body).to.include({
      name: 'Topping out',
      description: 'Crane',
      dueDate: '2026-10-15',
      version: 2,
    });
    expect(moved.headers.get('etag')).to.equal('"2"');
    expectProblem(
      await ctx.api.delete('deleteMilestone', `/milestones/${m.id}`, { headers: { 'If-Match': '"1"' } }),
      412,
      'precondition_failed',
    );
    const deleted = await ctx.api.delete('deleteMilestone', `/milestones/${m.id}`, {
      headers: { 'If-Match': '"2"' },
    });
    expect(deleted.status).to.equal(204);
    expect(deleted.body).to.equal(undefined);
    expectProblem(await ctx.api.get('getMilestone', `/milestones/${m.id}`), 404, 'not_found');
    expectProblem(await ctx.api.delete('deleteMilestone', `/milestones/${m.id}`), 404, 'not_found');
  });

  it('answers 404 for unknown and other tenants’ projects and milestones, 403 for a read key, 400 for bad input', async () => {
    const m = (await create({ name: 'Handover', dueDate: '2026-12-01' })).body;
    const other = client(ctx.server.baseUrl, (await ctx.server.createTenant()).keys.admin);
    expectProblem(await other.get('getMilestone', `/milestones/${m.id}`), 404, 'not_found');
    expectProblem(
      await other.patch('updateMilestone', `/milestones/${m.id}`, { body: { name: 'x' } }),
      404,
      'not_found',
    );
    expectProblem(
      await other.get('listProjectMilestones', `/projects/${project.id}/milestones`),
      404,
      'not_found',
    );
    expectProblem(await create({ name: 'x', dueDate: '2026-01-01' }, randomUUID()), 404, 'not_found');
    const reader = ctx.reader;
    expectProblem(
      await reader.post('createMilestone', `/projects/${project.id}/milestones`, {
        body: { name: 'x', dueDate: '2026-01-01' },
      }),
      403,
      'forbidden',
    );
    expectProblem(await reader.delete('deleteMilestone', `/milestones/${m.id}`), 403, 'forbidden');
    const bad = await create({ name: 'x', dueDate: '2026-02-30' });
    expectProblem(bad, 400, 'validation_failed');
    expectProblem(await create({ dueDate: '2026-02-01' }), 400, 'validation_failed');
  });

  it('writes an audit row for create, update and delete', async () => {
    const m = (await create({ name: 'Audit me', dueDate: '2026-08-01' })).body;
    const updated = await ctx.api.patch('updateMilestone', `/milestones/${m.id}`, {
      body: { name: 'Audited' },
    });
    expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
    expect((await ctx.api.delete('deleteMilestone', `/milestones/${m.id}`)).status).to.equal(204);
    const rows = await ctx.server.db
      .knex('audit_logs')
      .where({ tenant_id: ctx.tenant.tenantId, resource_id: m.id })
      .orderBy([{ column: 'occurred_at' }, { column: 'id' }])
      .select('action', 'changes');
    expect(rows.map((r: { action: string }) => r.action)).to.deep.equal([
      'milestone.created',
      'milestone.updated',
      'milestone.deleted',
    ]);
    expect(JSON.parse(rows[1].changes)).to.deep.equal({ name: { from: 'Audit me', to: 'Audited' } });
    expect(JSON.parse(rows[2].changes).name).to.deep.equal({ from: 'Audited', to: null });
  });
});
