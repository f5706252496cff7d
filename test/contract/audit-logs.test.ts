/**
 * Contract tests of the Audit Logs tag (docs/design.md: every mutation appends `{ occurredAt, actor, action,
 * resourceType, resourceId, changes { field: { from, to } }, requestId }` in its transaction; append-only).
 */
import { expect } from 'chai';
import { ManualClock } from '../../server/clock.js';
import { expectProblem } from '../support/assertions.js';
import { client } from '../support/client.js';
import { makeProject } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

describe('Audit Logs', () => {
  const clock = new ManualClock('2026-06-01T12:00:00.000Z');
  const ctx = contractSuite({ clock });

  it('records each mutation with actor, request id and before/after values', async () => {
    const writer = ctx.api;
    const me = (await writer.get('getMe', '/me')).body;
    const project = await makeProject(writer, { name: 'Audit bridge' });
    clock.advance(1000);
    await writer.patch('updateProject', `/projects/${project.id}`, {
      body: { status: 'AT_RISK', name: 'Audit bridge' },
      headers: { 'X-Request-Id': 'trace-42' },
    });
    const res = await ctx.admin.get('listAuditLogs', '/audit-logs', { query: { resourceId: project.id } });
    expect(res.status).to.equal(200);
    expect(res.body.data.map((e: { action: string }) => e.action)).to.deep.equal([
      'project.created',
      'project.updated',
    ]);
    const [created, updated] = res.body.data;
    expect(created.changes.name).to.deep.equal({ from: null, to: 'Audit bridge' });
    expect(updated).to.deep.include({
      occurredAt: '2026-06-01T12:00:01.000Z',
      actor: { userId: me.user.id, apiKeyId: me.apiKey.id, via: 'api_key' },
      resourceType: 'project',
      resourceId: project.id,
      requestId: 'trace-42',
    });
    // Only the field that changed: the name was sent unchanged.
    expect(updated.changes).to.deep.equal({ status: { from: 'PLANNED', to: 'AT_RISK' } });
  });

  it('filters by action, resourceType, actorId and the since/until window (inclusive/exclusive)', async () => {
    const writer = ctx.api;
    const keyId = (await writer.get('getMe', '/me')).body.apiKey.id;
    const t0 = clock.now().toISOString();
    const p = await makeProject(writer);
    clock.advance(60_000);
    const t1 = clock.now().toISOString();
    await writer.post('createRisk', '/risks', {
      body: { title: 'Flood', projectId: p.id, likelihood: 3, impact: 3 },
    });
    clock.advance(60_000);
    const q = async (query: Record<string, string>) =>
      (await ctx.admin.get('listAuditLogs', '/audit-logs', { query })).body.data.map(
        (e: { action: string }) => e.action,
      );
    expect(await q({ action: 'risk.created' })).to.deep.equal(['risk.created']);
    expect(await q({ resourceType: 'project' })).to.deep.equal(['project.created']);
    expect(await q({ actorId: keyId })).to.deep.equal(['project.created', 'risk.created']);
    expect(await q({ since: t0, until: t1 }))
      .to.include('project.created')
      .and.not.include('risk.created');
    expect(await q({ since: t1 })).to.deep.equal(['risk.created']);
    // The same instant written with an offset selects the same entries.
    expect(await q({ since: t1.replace('12:01:00.000Z', '14:01:00+02:00') })).to.deep.equal(['risk.created']);
    const bad = await ctx.admin.get('listAuditLogs', '/audit-logs', { query: { since: 'yesterday' } });
    expectProblem(bad, 400, 'validation_failed');
  });

  it('shows only the tenant’s own entries, and only to admin keys', async () => {
    const other = await ctx.server.createTenant();
    await makeProject(client(ctx.server.baseUrl, other.keys.write));
    const mine = (await ctx.admin.get('listAuditLogs', '/audit-logs', { query: { limit: 100 } })).body.data;
    expect(mine.every((e: { resourceType: string }) => e.resourceType !== 'project')).to.equal(true);
    expectProblem(await ctx.api.get('listAuditLogs', '/audit-logs'), 403, 'forbidden');
  });

  it('is append-only in the database itself: UPDATE and DELETE are refused', async () => {
    await makeProject(ctx.api);
    const table = () => ctx.server.db.knex('audit_logs').where({ tenant_id: ctx.tenant.tenantId });
    const before = await table().select('*');
    expect(before.length).to.be.greaterThan(0);
    let updateError: unknown;
    await table()
      .update({ action: 'tampered' })
      .catch((err: unknown) => {
        updateError = err;
      });
    let deleteError: unknown;
    await table()
      .delete()
      .catch((err: unknown) => {
        deleteError = err;
      });
    expect(String(updateError)).to.match(/append-only/);
    expect(String(deleteError)).to.match(/append-only/);
    expect(await table().select('*')).to.deep.equal(before);
  });
});
