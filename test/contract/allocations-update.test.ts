/**
 * Contract tests of updateAllocation and deleteAllocation: partial updates re-checked, If-Match, audit rows, and
 * what is refused across tenants and scopes.
 */
import { expect } from 'chai';
import { listAuditForResource } from '../../server/repositories/audit.js';
import { allocationFixture } from '../support/allocations.js';
import { expectProblem, fieldErrors } from '../support/assertions.js';
import { makeProject, makeResource } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

describe('Allocations: update and delete', () => {
  const ctx = contractSuite();
  const alloc = allocationFixture(ctx);

  describe('updateAllocation', () => {
    it('changes only the fields present, bumps version and ETag, and audits the change', async () => {
      const a = await alloc.allocate({ role: 'Lead' });
      const res = await ctx.api.patch('updateAllocation', `/allocations/${a.id}`, {
        body: { endDate: '2026-07-15', allocationPercent: 80 },
      });
      expect(res.status).to.equal(200);
      expect(res.headers.get('etag')).to.equal('"2"');
      expect(res.body).to.include({
        resourceId: alloc.resource.id,
        projectId: alloc.project.id,
        startDate: '2026-06-01',
        endDate: '2026-07-15',
        allocationPercent: 80,
        role: 'Lead',
        version: 2,
      });
      const cleared = await ctx.api.patch('updateAllocation', `/allocations/${a.id}`, {
        body: { role: null },
      });
      expect(cleared.body).to.include({ role: null, version: 3 });
      expect((await ctx.api.get('getAllocation', `/allocations/${a.id}`)).body).to.deep.equal(cleared.body);
      const rows = await listAuditForResource(ctx.server.db.knex, ctx.tenant.tenantId, 'allocation', a.id);
      expect(rows.map((r) => r.action)).to.deep.equal([
        'allocation.created',
        'allocation.updated',
        'allocation.updated',
      ]);
      expect(rows[1]?.changes).to.deep.equal({
        endDate: { from: '2026-06-30', to: '2026-07-15' },
        allocationPercent: { from: 50, to: 80 },
      });
    });

    it('re-checks the dates: 422 when the result ends before it starts, nothing written', async () => {
      const a = await alloc.allocate({ startDate: '2026-06-10', endDate: '2026-06-20' });
      const early = await ctx.api.patch('updateAllocation', `/allocations/${a.id}`, {
        body: { endDate: '2026-06-09' },
      });
      expect(fieldErrors(expectProblem(early, 422, 'validation_failed'))).to.deep.equal(['body:/endDate']);
      const late = await ctx.api.patch('updateAllocation', `/allocations/${a.id}`, {
        body: { startDate: '2026-06-21' },
      });
      expectProblem(late, 422, 'validation_failed');
      const both = await ctx.api.patch('updateAllocation', `/allocations/${a.id}`, {
        body: { startDate: '2026-07-01', endDate: '2026-07-02' },
      });
      expect(both.body).to.include({ startDate: '2026-07-01', endDate: '2026-07-02', version: 2 });
    });

    it('refuses to move an allocation to another resource or project (400)', async () => {
      const a = await alloc.allocate();
      for (const [body, field] of [
        [{ resourceId: (await makeResource(ctx.api)).id }, '/resourceId'],
        [{ projectId: (await makeProject(ctx.api)).id }, '/projectId'],
        [{ allocationPercent: 101 }, '/allocationPercent'],
      ] as const) {
        const problem = expectProblem(
          await ctx.api.patch('updateAllocation', `/allocations/${a.id}`, { body }),
          400,
          'validation_failed',
        );
        expect(fieldErrors(problem)).to.include(`body:${field}`);
      }
      expect((await ctx.api.get('getAllocation', `/allocations/${a.id}`)).body).to.deep.equal(a);
    });

    it('honours If-Match (412 when stale) and treats an empty body as a no-op', async () => {
      const a = await alloc.allocate();
      const noop = await ctx.api.patch('updateAllocation', `/allocations/${a.id}`, { body: {} });
      expect(noop.body).to.deep.equal(a);
      const ok = await ctx.api.patch('updateAllocation', `/allocations/${a.id}`, {
        body: { allocationPercent: 60 },
        headers: { 'If-Match': '"1"' },
      });
      expect(ok.body.version).to.equal(2);
      const stale = await ctx.api.patch('updateAllocation', `/allocations/${a.id}`, {
        body: { allocationPercent: 70 },
        headers: { 'If-Match': '"1"' },
      });
      expectProblem(stale, 412, 'precondition_failed');
      expect((await ctx.api.get('getAllocation', `/allocations/${a.id}`)).body.allocationPercent).to.equal(
        60,
      );
    });

    it('answers 404 across tenants and 403 for a read-only key', async () => {
      const a = await alloc.allocate();
      const other = await ctx.server.createTenant();
      expectProblem(
        await ctx.as(other.keys.write).patch('updateAllocation', `/allocations/${a.id}`, {
          body: { allocationPercent: 10 },
        }),
        404,
        'not_found',
      );
      expectProblem(
        await ctx.reader.patch('updateAllocation', `/allocations/${a.id}`, {
          body: { allocationPercent: 10 },
        }),
        403,
        'forbidden',
      );
      expect((await ctx.api.get('getAllocation', `/allocations/${a.id}`)).body).to.deep.equal(a);
    });
  });

  describe('deleteAllocation', () => {
    it('answers 204 without a body, then 404; the audit row keeps the last values', async () => {
      const a = await alloc.allocate();
      const res = await ctx.api.delete('deleteAllocation', `/allocations/${a.id}`);
      expect(res.status).to.equal(204);
      expect(res.body).to.equal(undefined);
      expectProblem(await ctx.api.get('getAllocation', `/allocations/${a.id}`), 404, 'not_found');
      expectProblem(await ctx.api.delete('deleteAllocation', `/allocations/${a.id}`), 404, 'not_found');
      const rows = await listAuditForResource(ctx.server.db.knex, ctx.tenant.tenantId, 'allocation', a.id);
      expect(rows.map((r) => r.action)).to.deep.equal(['allocation.created', 'allocation.deleted']);
      expect(rows[1]?.changes.allocationPercent).to.deep.equal({ from: 50, to: null });
    });

    it('honours If-Match: 412 for a stale ETag (kept), 204 for the current one', async () => {
      const a = await alloc.allocate();
      await ctx.api.patch('updateAllocation', `/allocations/${a.id}`, { body: { role: 'x' } });
      expectProblem(
        await ctx.api.delete('deleteAllocation', `/allocations/${a.id}`, { headers: { 'If-Match': '"1"' } }),
        412,
        'precondition_failed',
      );
      expect((await ctx.api.get('getAllocation', `/allocations/${a.id}`)).status).to.equal(200);
      const ok = await ctx.api.delete('deleteAllocation', `/allocations/${a.id}`, {
        headers: { 'If-Match': '"2"' },
      });
      expect(ok.status).to.equal(204);
    });

    it('answers 404 across tenants, 403 for a read-only key and 401 without a key (kept)', async () => {
      const a = await alloc.allocate();
      const other = await ctx.server.createTenant();
      expectProblem(
        await ctx.as(other.keys.write).delete('deleteAllocation', `/allocations/${a.id}`),
        404,
        'not_found',
      );
      expectProblem(await ctx.reader.delete('deleteAllocation', `/allocations/${a.id}`), 403, 'forbidden');
      expectProblem(
        await ctx.as(null).delete('deleteAllocation', `/allocations/${a.id}`),
        401,
        'unauthenticated',
      );
      expect((await ctx.api.get('getAllocation', `/allocations/${a.id}`)).body).to.deep.equal(a);
    });
  });
});
