/**
 * Contract tests of the tenant's name, currency and time zone (`PATCH /tenant`; docs/design.md, "Tenant settings")
 * and of the rate limit's use in the current window on `GET /tenant` (docs/design.md, "Limits").
 */
import { expect } from 'chai';
import { ManualClock } from '../../server/clock.js';
import { expectProblem, fieldErrors } from '../support/assertions.js';
import { addMember } from '../support/members.js';
import { makeProject } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

const header = (res: { headers: Headers }, name: string, field: string) =>
  Number(res.headers.get(name)?.match(new RegExp(`${field}=(\\d+)`))?.[1]);

describe('Tenant settings', () => {
  const clock = new ManualClock('2026-08-03T10:15:20.000Z');
  const ctx = contractSuite({ clock });

  it('renames the tenant and changes its currency and time zone, audited with each value before and after', async () => {
    const { name } = (await ctx.reader.get('getTenant', '/tenant')).body;
    const res = await ctx.admin.patch('updateTenant', '/tenant', {
      body: { name: '  Harbour Works  ', currency: 'EUR', timezone: 'Europe/Paris' },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ name: 'Harbour Works', currency: 'EUR', timezone: 'Europe/Paris' });
    expect(res.body.settings).to.deep.equal({ llmEnabled: true, requireTwoFactor: false });
    expect(res.body.updatedAt).to.equal('2026-08-03T10:15:20.000Z');
    const read = await ctx.reader.get('getTenant', '/tenant');
    expect(read.body).to.include({ name: 'Harbour Works', currency: 'EUR', timezone: 'Europe/Paris' });
    const me = await ctx.reader.get('getMe', '/me');
    expect(me.body.tenant.name).to.equal('Harbour Works');
    const audit = await ctx.admin.get('listAuditLogs', '/audit-logs', {
      query: { action: 'tenant.updated' },
    });
    expect(audit.body.data).to.have.length(1);
    expect(audit.body.data[0]).to.include({ resourceType: 'tenant', resourceId: ctx.tenant.tenantId });
    expect(audit.body.data[0].changes).to.deep.equal({
      name: { from: name, to: 'Harbour Works' },
      currency: { from: 'USD', to: 'EUR' },
      timezone: { from: 'UTC', to: 'Europe/Paris' },
    });
    // The same values again change nothing: no audit row, no new updatedAt.
    clock.advance(1_000);
    const again = await ctx.admin.patch('updateTenant', '/tenant', {
      body: { name: 'Harbour Works', timezone: 'Europe/Paris' },
    });
    expect(again.body.updatedAt).to.equal('2026-08-03T10:15:20.000Z');
    const after = await ctx.admin.get('listAuditLogs', '/audit-logs', {
      query: { action: 'tenant.updated' },
    });
    expect(after.body.data).to.have.length(1);
  });

  it('relabels stored amounts with a new currency, converting nothing', async () => {
    const project = await makeProject(ctx.api, { budget: 250000 });
    expect(project.currency).to.equal('USD');
    await ctx.admin.patch('updateTenant', '/tenant', { body: { currency: 'JPY' } });
    const read = await ctx.reader.get('getProject', `/projects/${project.id}`);
    expect(read.body).to.include({ currency: 'JPY', budget: 250000 });
  });

  it('accepts IANA zones ICU knows (aliases too) and refuses others, and unknown currencies, with 422', async () => {
    for (const timezone of ['America/Argentina/Buenos_Aires', 'Asia/Kolkata', 'UTC']) {
      const res = await ctx.admin.patch('updateTenant', '/tenant', { body: { timezone } });
      expect(res.status, timezone).to.equal(200);
      expect(res.body.timezone).to.equal(timezone);
    }
    for (const timezone of ['Mars/Olympus_Mons', 'EST', '+01:00', 'europe/paris']) {
      const problem = expectProblem(
        await ctx.admin.patch('updateTenant', '/tenant', { body: { timezone } }),
        422,
        'validation_failed',
      );
      expect(fieldErrors(problem), timezone).to.deep.equal(['body:/timezone']);
    }
    const problem = expectProblem(
      await ctx.admin.patch('updateTenant', '/tenant', {
        body: { currency: 'ABC', timezone: 'Nowhere/City' },
      }),
      422,
      'validation_failed',
    );
    expect(fieldErrors(problem)).to.have.members(['body:/currency', 'body:/timezone']);
    // Malformed values never reach the service: 400.
    for (const body of [
      { currency: 'eur' },
      { currency: 'EURO' },
      { name: '   ' },
      { name: '' },
      { plan: 'ENTERPRISE' },
    ])
      expectProblem(await ctx.admin.patch('updateTenant', '/tenant', { body }), 400, 'validation_failed');
    const read = await ctx.reader.get('getTenant', '/tenant');
    expect(read.body).to.include({ currency: 'USD', timezone: 'UTC' });
  });

  it('takes the admin scope; an admin changes the name but not requireTwoFactor, which is the owner’s', async () => {
    expectProblem(await ctx.api.patch('updateTenant', '/tenant', { body: { name: 'X' } }), 403, 'forbidden');
    const admin = await addMember(ctx.server, ctx.tenant.tenantId, 'admin');
    const asAdmin = ctx.as(admin.key);
    const renamed = await asAdmin.patch('updateTenant', '/tenant', { body: { name: 'Renamed by an admin' } });
    expect(renamed.status).to.equal(200);
    expectProblem(
      await asAdmin.patch('updateTenant', '/tenant', {
        body: { name: 'Not this', settings: { requireTwoFactor: true } },
      }),
      403,
      'forbidden',
    );
    expect((await ctx.reader.get('getTenant', '/tenant')).body.name).to.equal('Renamed by an admin');
  });

  it('shows the current window’s use as the RateLimit header does, without counting another request', async () => {
    clock.advance(60_000);
    const leaves = new Date(clock.now().getTime() + 60_000).toISOString();
    const first = await ctx.reader.get('getTenant', '/tenant');
    expect(first.body.rateLimit).to.deep.equal({
      requestsPerMinute: 1000,
      used: 1,
      remaining: 999,
      resetAt: leaves,
    });
    clock.advance(20_000);
    await ctx.reader.get('getMe', '/me');
    await ctx.api.get('listProjects', '/projects');
    const res = await ctx.reader.get('getTenant', '/tenant');
    const { rateLimit } = res.body;
    expect(rateLimit).to.deep.equal({
      requestsPerMinute: 1000,
      used: 4,
      remaining: 996,
      // The oldest of the window (the first GET) leaves it 60 s after it came: 40 s from now.
      resetAt: leaves,
    });
    expect(header(res, 'ratelimit', 'r')).to.equal(rateLimit.remaining);
    expect(header(res, 'ratelimit', 't')).to.equal(40);
    expect(header(res, 'ratelimit-policy', 'q')).to.equal(rateLimit.requestsPerMinute);
  });
});
