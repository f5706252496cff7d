/**
 * Events written to the outbox by the API's own operations (seed: the six kinds; docs/design.md: triggers, payload
 * `{ id, event, tenantId, timestamp, data }`, written in the transaction of the change). Each payload is checked
 * against the spec's event schema (the `webhooks` section).
 */
import { expect } from 'chai';
import { ManualClock } from '../../server/clock.js';
import { listEvents } from '../../server/repositories/events.js';
import { client } from '../support/client.js';
import { assertMatchesSchema } from '../support/contract.js';
import { makeProject, makeRisk } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

const SCHEMA: Record<string, string> = {
  'project.status_changed': 'ProjectStatusChangedEvent',
  'risk.created': 'RiskCreatedEvent',
  'risk.severity_escalated': 'RiskSeverityEscalatedEvent',
  'milestone.missed': 'MilestoneMissedEvent',
  'budget.overrun_detected': 'BudgetOverrunDetectedEvent',
};

describe('events (transactional outbox)', () => {
  // 23:30 in New York on 2026-09-30 is already 2026-10-01 in UTC.
  const clock = new ManualClock('2026-10-01T03:30:00.000Z');
  const ctx = contractSuite({ clock });

  async function events(type: string): Promise<any[]> {
    const rows = await listEvents(ctx.server.db.knex, ctx.tenant.tenantId, type);
    return rows.map((row) => {
      const payload = JSON.parse(row.payload);
      assertMatchesSchema(SCHEMA[type] as string, payload);
      expect(payload).to.include({
        id: row.id,
        event: type,
        tenantId: ctx.tenant.tenantId,
        timestamp: row.occurredAt,
      });
      return payload;
    });
  }

  it('project.status_changed on every status change, with the previous status and the project', async () => {
    const p = await makeProject(ctx.api);
    expect(await events('project.status_changed')).to.deep.equal([]);
    await ctx.api.patch('updateProject', `/projects/${p.id}`, { body: { status: 'ON_TRACK' } });
    await ctx.api.patch('updateProject', `/projects/${p.id}`, { body: { name: 'Renamed only' } });
    const patched = await ctx.api.patch('updateProject', `/projects/${p.id}`, {
      body: { status: 'AT_RISK' },
    });
    const sent = await events('project.status_changed');
    expect(sent.map((e) => [e.data.previousStatus, e.data.status])).to.deep.equal([
      ['PLANNED', 'ON_TRACK'],
      ['ON_TRACK', 'AT_RISK'],
    ]);
    expect(sent[1].data.projectId).to.equal(p.id);
    expect(sent[1].data.project).to.deep.equal(patched.body);
    expect(sent[1].timestamp).to.equal('2026-10-01T03:30:00.000Z');
  });

  it('risk.created, and risk.severity_escalated only when severity rises', async () => {
    const p = await makeProject(ctx.api);
    const risk = await makeRisk(ctx.api, p.id, { likelihood: 1, impact: 2 });
    const created = await events('risk.created');
    expect(created).to.have.length(1);
    expect(created[0].data).to.deep.equal({ riskId: risk.id, projectId: p.id, risk });
    await ctx.api.patch('updateRisk', `/risks/${risk.id}`, { body: { likelihood: 3 } }); // 6: LOW → MEDIUM
    await ctx.api.patch('updateRisk', `/risks/${risk.id}`, { body: { likelihood: 4 } }); // 8: still MEDIUM
    await ctx.api.patch('updateRisk', `/risks/${risk.id}`, { body: { severity: 'LOW' } }); // manual, lower: no event
    await ctx.api.patch('updateRisk', `/risks/${risk.id}`, { body: { severity: 'CRITICAL' } }); // manual rise
    await ctx.api.patch('updateRisk', `/risks/${risk.id}`, { body: { severity: null } }); // back to derived MEDIUM
    const escalations = await events('risk.severity_escalated');
    expect(escalations.map((e) => [e.data.previousSeverity, e.data.severity])).to.deep.equal([
      ['LOW', 'MEDIUM'],
      ['LOW', 'CRITICAL'],
    ]);
    expect(escalations[1].data.risk.severitySource).to.equal('MANUAL');
  });

  it('budget.overrun_detected once per crossing, for ACTUAL and FORECAST', async () => {
    const p = await makeProject(ctx.api, { budget: 1_000_000 });
    const patch = (body: Record<string, unknown>) =>
      ctx.api.patch('updateProject', `/projects/${p.id}`, { body });
    await patch({ forecastCost: 1_000_000 }); // at budget: not over
    await patch({ forecastCost: 1_250_000.5 }); // crosses
    await patch({ forecastCost: 1_300_000 }); // still over
    await patch({ forecastCost: 990_000 }); // back under
    await patch({ forecastCost: 1_010_000 }); // crosses again
    await patch({ actualCost: 1_000_001 }); // ACTUAL crosses
    const sent = await events('budget.overrun_detected');
    expect(sent.map((e) => [e.data.kind, e.data.amount, e.data.overrun])).to.deep.equal([
      ['FORECAST', 1_250_000.5, 250_000.5],
      ['FORECAST', 1_010_000, 10_000],
      ['ACTUAL', 1_000_001, 1],
    ]);
    expect(sent[0].data).to.include({ projectId: p.id, budget: 1_000_000, currency: 'USD' });
  });

  it('milestone.missed once per milestone past due in the tenant’s time zone, by the sweep', async () => {
    const ny = await ctx.server.createTenant();
    await ctx.server.db.knex('tenants').where({ id: ny.tenantId }).update({ timezone: 'America/New_York' });
    const nyApi = client(ctx.server.baseUrl, ny.keys.write);
    const p = await makeProject(nyApi);
    const add = async (dueDate: string, status?: string) =>
      (
        await nyApi.post('createMilestone', `/projects/${p.id}/milestones`, {
          body: { name: `Due ${dueDate}`, dueDate, ...(status ? { status } : {}) },
        })
      ).body;
    const late = await add('2026-09-29');
    const today = await add('2026-09-30'); // still today in New York
    await add('2026-09-01', 'COMPLETED');
    await ctx.server.meridian.services.milestones.sweepMissed();
    await ctx.server.meridian.services.milestones.sweepMissed(); // a second sweep announces nothing twice
    const rows = await listEvents(ctx.server.db.knex, ny.tenantId, 'milestone.missed');
    expect(rows.map((r) => JSON.parse(r.payload).data.milestoneId)).to.deep.equal([late.id]);
    const payload = JSON.parse(rows[0]?.payload as string);
    assertMatchesSchema('MilestoneMissedEvent', payload);
    expect(payload.data.milestone).to.include({ status: 'MISSED', version: 2 });
    expect((await nyApi.get('getMilestone', `/milestones/${today.id}`)).body.status).to.equal('PENDING');
    // A day later in New York the second one is missed too.
    clock.advance(86_400_000);
    await ctx.server.meridian.services.milestones.sweepMissed();
    expect(await listEvents(ctx.server.db.knex, ny.tenantId, 'milestone.missed')).to.have.length(2);
    // Reopened by hand, it is not announced again; set to MISSED by hand, a milestone is announced once.
    await nyApi.patch('updateMilestone', `/milestones/${late.id}`, { body: { status: 'PENDING' } });
    await ctx.server.meridian.services.milestones.sweepMissed();
    expect((await nyApi.get('getMilestone', `/milestones/${late.id}`)).body.status).to.equal('PENDING');
    const manual = await add('2027-01-15');
    await nyApi.patch('updateMilestone', `/milestones/${manual.id}`, { body: { status: 'MISSED' } });
    await nyApi.patch('updateMilestone', `/milestones/${manual.id}`, { body: { status: 'PENDING' } });
    await nyApi.patch('updateMilestone', `/milestones/${manual.id}`, { body: { status: 'MISSED' } });
    const all = await listEvents(ctx.server.db.knex, ny.tenantId, 'milestone.missed');
    expect(all.map((r) => JSON.parse(r.payload).data.milestoneId)).to.deep.equal([
      late.id,
      today.id,
      manual.id,
    ]);
  });

  it('writes nothing when the change is refused: the event is in the change’s transaction', async () => {
    const p = await makeProject(ctx.api, { status: 'COMPLETED' });
    const refused = await ctx.api.patch('updateProject', `/projects/${p.id}`, {
      body: { status: 'AT_RISK' },
    });
    expect(refused.status).to.equal(409);
    expect(await events('project.status_changed')).to.deep.equal([]);
  });
});
