/**
 * Contract tests of the Agents tag (docs/agents.md, Agents), except `askAgent` and what each agent finds: the
 * catalogue, runs (202, Location, validation), determinism with `asOf`, the list of executions (filters, sort,
 * paging) and idempotent runs. The world: test/support/agents-world.ts.
 */
import { expect } from 'chai';
import { AGENT_IDS, agentsWorld } from '../support/agents-world.js';
import { expectProblem, fieldErrors, parseLink } from '../support/assertions.js';
import { client } from '../support/client.js';
import { makeProject } from '../support/records.js';

describe('Agents', function () {
  this.timeout(60_000);
  const ctx = agentsWorld();

  it('lists the catalogue: six agents with reads, depths, scopes and metrics (paginated)', async () => {
    const res = await ctx.api.get('listAgents', '/agents');
    expect(res.status).to.equal(200);
    expect(res.body.data.map((a: { id: string }) => a.id)).to.deep.equal(AGENT_IDS);
    expect(res.body.pagination).to.deep.equal({ limit: 25, offset: 0, total: 6, hasMore: false });
    for (const agent of res.body.data) {
      expect(agent.depths).to.deep.equal(['quick', 'standard', 'deep']);
      expect(agent.scopes).to.deep.equal(['all', 'project']);
      expect(agent.reads).to.include('projects');
      expect(agent.metrics.length).to.be.greaterThan(3);
      for (const m of agent.metrics) expect(m.description.length).to.be.greaterThan(10);
      expect(agent.changesRecords).to.equal(agent.id === 'schedule-health');
    }
    const page = await client(ctx.server.baseUrl, ctx.tenant.keys.read).get('listAgents', '/agents', {
      query: { limit: 2, offset: 2 },
    });
    expect(page.body.data.map((a: { id: string }) => a.id)).to.deep.equal([
      'budget-health',
      'risk-assessment',
    ]);
    expect(Object.keys(parseLink(page.headers.get('link')))).to.deep.equal(['next', 'prev']);
  });

  it('accepts a run: 202, Location, PENDING with the tenant’s today as asOf; GET polls it', async () => {
    const res = await ctx.run({ agentId: 'budget-health' });
    expect(res.status).to.equal(202);
    expect(res.headers.get('location')).to.equal(`/v1/agents/executions/${res.body.executionId}`);
    expect(res.body).to.include({
      agentId: 'budget-health',
      scope: 'all',
      depth: 'standard',
      asOf: '2026-03-02',
      status: 'PENDING',
      attempts: 0,
      progress: null,
      output: null,
      error: null,
      startedAt: null,
      completedAt: null,
    });
    expect((await ctx.get(res.body.executionId)).body).to.deep.equal(res.body);
    await ctx.runner.drain();
    const done = (await ctx.get(res.body.executionId)).body;
    expect(done).to.include({ status: 'COMPLETED', attempts: 1, progress: null, error: null });
    expect(done.startedAt).to.equal(ctx.clock.now().toISOString());
    expect(done.completedAt).to.equal(ctx.clock.now().toISOString());
    expect(done.output.asOf).to.equal('2026-03-02');
  });

  it('refuses bad runs: 400 for an unknown agent, depth, a malformed scope or asOf; 422 for another tenant’s project or a future asOf; 403 without write', async () => {
    expectProblem(await ctx.run({ agentId: 'fortune-teller' }), 400, 'validation_failed');
    expectProblem(await ctx.run({ agentId: 'budget-health', depth: 'thorough' }), 400, 'validation_failed');
    expectProblem(await ctx.run({ agentId: 'budget-health', scope: 'project:42' }), 400, 'validation_failed');
    expectProblem(await ctx.run({ agentId: 'budget-health', asOf: '2026-02-30' }), 400, 'validation_failed');
    expectProblem(await ctx.run({ agentId: 'budget-health', extra: true }), 400, 'validation_failed');
    const foreign = await makeProject(
      client(ctx.server.baseUrl, (await ctx.server.createTenant()).keys.write),
    );
    const scoped = expectProblem(
      await ctx.run({ agentId: 'budget-health', scope: `project:${foreign.id}` }),
      422,
      'validation_failed',
    );
    expect(fieldErrors(scoped)).to.deep.equal(['body:/scope']);
    const future = expectProblem(
      await ctx.run({ agentId: 'budget-health', asOf: '2026-03-03' }),
      422,
      'validation_failed',
    );
    expect(fieldErrors(future)).to.deep.equal(['body:/asOf']);
    expectProblem(await ctx.run({ agentId: 'budget-health' }, ctx.tenant.keys.read), 403, 'forbidden');
  });

  for (const agentId of AGENT_IDS) {
    it(`${agentId}: runs to COMPLETED over the portfolio and over one project; every citation resolves to the tenant's record`, async () => {
      for (const scope of ['all', `project:${ctx.ids.late}`]) {
        const done = await ctx.runToEnd({ agentId, scope, depth: 'standard' });
        expect(done.status, JSON.stringify(done.error)).to.equal('COMPLETED');
        expect(done.attempts).to.equal(1);
        expect(done.output.findings.length).to.be.greaterThan(0);
        await ctx.checkCitations(done.output);
      }
    });
  }

  it('gives the same output for the same records and parameters (asOf given)', async () => {
    for (const agentId of ['portfolio-health', 'status-report', 'risk-assessment']) {
      const body = { agentId, scope: 'all', depth: 'deep', asOf: '2026-03-01' };
      const first = await ctx.runToEnd(body);
      ctx.clock.advance(60_000);
      const second = await ctx.runToEnd(body);
      expect(second.executionId).to.not.equal(first.executionId);
      expect(second.output).to.deep.equal(first.output);
    }
  });

  it('lists executions: filters by agentId and status, sort=-createdAt newest first, paginated', async () => {
    const other = await ctx.server.createTenant();
    const mine = client(ctx.server.baseUrl, other.keys.write);
    const made: string[] = [];
    for (const agentId of ['budget-health', 'risk-assessment', 'budget-health']) {
      ctx.clock.advance(1_000);
      const res = await mine.post('runAgent', '/agents/run', { body: { agentId, depth: 'quick' } });
      made.push(res.body.executionId);
    }
    const all = await mine.get('listAgentExecutions', '/agents/executions');
    expect(all.body.data.map((e: { executionId: string }) => e.executionId)).to.deep.equal(made);
    const newest = await mine.get('listAgentExecutions', '/agents/executions', {
      query: { sort: '-createdAt', limit: 2 },
    });
    expect(newest.body.data.map((e: { executionId: string }) => e.executionId)).to.deep.equal([
      made[2],
      made[1],
    ]);
    expect(newest.body.pagination).to.deep.equal({ limit: 2, offset: 0, total: 3, hasMore: true });
    expect(parseLink(newest.headers.get('link')).next).to.contain('sort=-createdAt');
    const budget = await mine.get('listAgentExecutions', '/agents/executions', {
      query: { agentId: 'budget-health' },
    });
    expect(budget.body.data.map((e: { executionId: string }) => e.executionId)).to.deep.equal([
      made[0],
      made[2],
    ]);
    const pending = await mine.get('listAgentExecutions', '/agents/executions', {
      query: { status: 'PENDING' },
    });
    expect(pending.body.pagination.total).to.equal(3);
    await ctx.runner.drain();
    const completed = await mine.get('listAgentExecutions', '/agents/executions', {
      query: { status: 'COMPLETED', agentId: 'risk-assessment' },
    });
    expect(completed.body.data.map((e: { executionId: string }) => e.executionId)).to.deep.equal([made[1]]);
    expectProblem(
      await mine.get('listAgentExecutions', '/agents/executions', { query: { sort: 'name' } }),
      400,
      'validation_failed',
    );
    // Another tenant sees none of them, and 404 for each.
    const theirs = await ctx.api.get('listAgentExecutions', '/agents/executions', { query: { limit: 100 } });
    expect(theirs.body.data.map((e: { executionId: string }) => e.executionId)).to.not.include.members(made);
    expectProblem(await ctx.api.get('getAgentExecution', `/agents/executions/${made[0]}`), 404, 'not_found');
    expectProblem(
      await ctx.api.get('getAgentExecution', '/agents/executions/01950000-0000-7000-8000-000000000000'),
      404,
      'not_found',
    );
  });

  it('replays a run sent twice with the same Idempotency-Key (one execution)', async () => {
    const key = `agents-${Date.now()}`;
    const first = await ctx.api.post('runAgent', '/agents/run', {
      body: { agentId: 'risk-assessment', depth: 'quick' },
      headers: { 'Idempotency-Key': key },
    });
    const second = await ctx.api.post('runAgent', '/agents/run', {
      body: { agentId: 'risk-assessment', depth: 'quick' },
      headers: { 'Idempotency-Key': key },
    });
    expect(second.status).to.equal(202);
    expect(second.headers.get('idempotent-replayed')).to.equal('true');
    expect(second.body.executionId).to.equal(first.body.executionId);
  });
});
