/**
 * What each agent finds, run by the real job runner over the fixture portfolio of test/support/agents-world.ts:
 * budget overruns with their figures, `schedule-health` marking an overdue milestone MISSED once, the over-allocated
 * person, and deep runs reading the status-report history; every output's citations checked.
 */
import { expect } from 'chai';
import { markersIn } from '../../server/services/agents/citations.js';
import { agentsWorld } from '../support/agents-world.js';

describe('Agents: findings', function () {
  this.timeout(60_000);
  const ctx = agentsWorld();

  it('budget-health names the overrun with its figures; unknown forecasts are said to be unknown, not 0', async () => {
    const done = await ctx.runToEnd({ agentId: 'budget-health', depth: 'standard' });
    expect(done.output.metrics).to.include({
      projects: 3,
      projectsWithForecast: 2,
      forecastUnknown: 1,
      totalBudget: 1_500_000,
      totalForecastCost: 1_730_000,
      varianceAtCompletion: -230_000,
      projectsOverBudget: 1,
      largestOverrun: 250_000,
    });
    const byAmount = done.output.findings.find((f: { title: string }) => f.title.includes('by amount'));
    expect(byAmount.citations).to.have.length(1);
    expect(byAmount.citations[0]).to.include({
      id: ctx.ids.late,
      field: 'forecastCost',
      url: `/v1/projects/${ctx.ids.late}`,
    });
    expect(byAmount.detail).to.contain(
      'budget 1,000,000 USD, forecast 1,250,000 USD, overrun 250,000 USD (25.0 %)',
    );
    const unknown = done.output.findings.find((f: { title: string }) => f.title.includes('without a budget'));
    expect(unknown.citations[0].id).to.equal(ctx.ids.bare);
  });

  it('schedule-health marks an overdue milestone MISSED through the sweep’s path: milestone.missed fires once', async () => {
    const made = await ctx.api.post('createMilestone', `/projects/${ctx.ids.late}/milestones`, {
      body: { name: 'Ventilation shaft', dueDate: '2026-02-15' },
    });
    const id = made.body.id as string;
    expect(made.body.status).to.equal('PENDING');
    const done = await ctx.runToEnd({ agentId: 'schedule-health', scope: `project:${ctx.ids.late}` });
    // This one and the one the earlier runs marked.
    expect(done.output.metrics).to.include({ overdueMilestones: 2, missedMilestones: 2, maxSlipDays: 365 });
    const after = await ctx.api.get('getMilestone', `/milestones/${id}`);
    expect(after.body).to.include({ status: 'MISSED', version: 2 });
    // Again, and the sweep: nothing more happens.
    const again = await ctx.runToEnd({ agentId: 'schedule-health', scope: 'all' });
    expect(again.output.metrics.missedMilestones).to.equal(2);
    expect(await ctx.server.meridian.services.milestones.sweepMissed()).to.equal(0);
    const events = (await ctx.server.db
      .knex('events')
      .where({ tenant_id: ctx.tenant.tenantId, type: 'milestone.missed' })) as {
      payload: string;
    }[];
    const ofMilestone = events.map((e) => JSON.parse(e.payload).data.milestoneId);
    expect(ofMilestone.filter((m) => m === id)).to.have.length(1);
    expect(ofMilestone.filter((m) => m === ctx.ids.milestone)).to.have.length(1);
    const audit = await ctx.api.get('listAuditLogs', '/audit-logs', {
      key: ctx.tenant.keys.admin,
      query: { resourceType: 'milestone', resourceId: id },
    });
    expect(audit.body.data.map((e: { action: string }) => e.action)).to.deep.equal([
      'milestone.created',
      'milestone.updated',
    ]);
    expect(audit.body.data[1].changes).to.deep.equal({ status: { from: 'PENDING', to: 'MISSED' } });
    // No agent run changed anything else: the only updates the system made (no user: the agents' and the sweep's
    // actor) are the two milestones'.
    const log = await ctx.api.get('listAuditLogs', '/audit-logs', {
      key: ctx.tenant.keys.admin,
      query: { limit: 100 },
    });
    const updates = log.body.data.filter(
      (e: { action: string; actor: { userId: string | null } }) =>
        /\.(updated|deleted)$/.test(e.action) && e.actor.userId === null,
    );
    expect(updates.map((e: { resourceId: string }) => e.resourceId).sort()).to.deep.equal(
      [id, ctx.ids.milestone].sort(),
    );
  });

  it('resource-capacity and status-report see the over-allocated person', async () => {
    const capacity = await ctx.runToEnd({ agentId: 'resource-capacity' });
    expect(capacity.output.metrics).to.include({
      resources: 1,
      overAllocatedResources: 1,
      peakAllocationPercent: 120,
    });
    const report = await ctx.runToEnd({ agentId: 'status-report', scope: `project:${ctx.ids.late}` });
    const text = report.output.report.text as string;
    expect(text).to.contain('# Status report — Harbour tunnel, as of 2026-03-02');
    expect(text).to.contain('Ana Ruiz');
    expect(report.output.report.overall).to.equal('RED');
    for (const section of report.output.report.sections)
      for (const sentence of section.sentences)
        expect(markersIn(sentence).length, sentence).to.be.greaterThan(0);
  });

  it('deep runs read the status-report history: slip velocity, budget growth, RAG changes, each citing the reports', async () => {
    const schedule = await ctx.runToEnd({ agentId: 'schedule-health', depth: 'deep' });
    // Slip +215 days on 2025-12-01, +365 on 2026-02-01: 150 days over 62 days, × 30.
    expect(schedule.output.metrics).to.include({
      projectsWithSlipVelocity: 1,
      // One move later (2027-01-31 → 2027-06-30) is not yet "repeatedly" (two or more).
      projectsSlippingRepeatedly: 0,
    });
    expect(schedule.output.metrics.averageSlipVelocity).to.equal(72.6);
    const velocity = schedule.output.findings.find((f: { title: string }) =>
      f.title.startsWith('Fastest-slipping'),
    );
    expect(velocity.citations.map((c: { type: string; field: string }) => [c.type, c.field])).to.deep.equal([
      ['status_report', 'forecastEndDate'],
      ['status_report', 'forecastEndDate'],
    ]);
    await ctx.checkCitations(schedule.output);
    const budget = await ctx.runToEnd({ agentId: 'budget-health', depth: 'deep' });
    expect(budget.output.metrics).to.include({
      projectsWithBudgetGrowth: 1,
      averageBudgetGrowthPercent: 4.2,
    });
    await ctx.checkCitations(budget.output);
    const health = await ctx.runToEnd({ agentId: 'portfolio-health', depth: 'deep' });
    expect(health.output.metrics).to.include({ ragChanged: 1, ragWorsened: 1, ragImproved: 0 });
    await ctx.checkCitations(health.output);
    const report = await ctx.runToEnd({
      agentId: 'status-report',
      scope: `project:${ctx.ids.late}`,
      depth: 'deep',
    });
    const overall = report.output.report.sections[0].sentences.join(' ');
    expect(overall).to.contain('moved from AT_RISK to OFF_TRACK');
    await ctx.checkCitations(report.output);
  });
});
