/**
 * Two `npm run worker` processes on one Postgres (docs/design.md, Job runner): 200 agent executions, each run
 * exactly once — every one COMPLETED with attempts = 1 (a second claim would have counted a second attempt) and
 * exactly one `agent.execution_completed` event each — because workers claim jobs with FOR UPDATE SKIP LOCKED.
 * Postgres only (MERIDIAN_TEST_DB=postgres): SQLite is the one-process embedded default.
 */
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { systemClock } from '../../server/clock.js';
import { systemActor } from '../../server/services/context.js';
import { buildServices } from '../../server/services/index.js';
import { startWorker, stopProcess } from '../support/processes.js';
import { openTestDatabase, TEST_DB } from '../support/server.js';

(TEST_DB === 'postgres' ? describe : describe.skip)(
  'agent executions: two worker processes on one Postgres',
  function () {
    this.timeout(240_000);
    const workers: ChildProcess[] = [];
    let database: Awaited<ReturnType<typeof openTestDatabase>>;
    before(async () => {
      database = await openTestDatabase('postgres');
    });
    after(async () => {
      for (const w of workers) await stopProcess(w);
      await database.dispose();
    });

    it('runs 200 executions exactly once each', async () => {
      const { knex } = database.db;
      const schema = ((await knex.raw('select current_schema() as s')) as { rows: { s: string }[] }).rows[0]
        ?.s;
      const services = buildServices(
        { db: database.db, clock: systemClock },
        { defaultRateLimitPerMinute: 1_000 },
      );
      const { tenant } = await services.tenants.create({
        name: 'Two agent workers',
        userName: 'Owner',
        userEmail: 'owner@example.com',
        rateLimitPerMinute: null,
      });
      const actor = systemActor(tenant.id);
      for (let i = 0; i < 10; i++) {
        await services.projects.create(actor, {
          name: `Project ${i}`,
          startDate: '2026-01-01',
          endDate: '2026-12-31',
          forecastEndDate: '2027-02-01',
          budget: 100,
          forecastCost: 100 + i,
        });
      }
      const url = new URL(process.env.TEST_DATABASE_URL as string);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const env = { DATABASE_URL: url.toString(), MERIDIAN_WORKER_POLL_MS: '20' };
      workers.push(await startWorker(env));
      workers.push(await startWorker(env));

      const EXECUTIONS = 200;
      const agents = [
        'portfolio-health',
        'schedule-health',
        'budget-health',
        'risk-assessment',
        'status-report',
      ] as const;
      const ids: string[] = [];
      const started = Date.now();
      for (let i = 0; i < EXECUTIONS; i++) {
        const execution = await services.agents.run(actor, {
          agentId: agents[i % agents.length] as (typeof agents)[number],
          depth: 'standard',
        });
        ids.push(execution.executionId);
      }
      const deadline = Date.now() + 180_000;
      let finished = 0;
      while (Date.now() < deadline) {
        const [row] = await knex('agent_executions')
          .whereIn('status', ['COMPLETED', 'FAILED'])
          .count({ n: '*' });
        finished = Number((row as { n: unknown }).n);
        if (finished === EXECUTIONS) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const elapsed = Date.now() - started;
      // Give a second run, if there were one, time to show.
      await new Promise((r) => setTimeout(r, 500));
      const rows = (await knex('agent_executions').select('id', 'status', 'attempts')) as {
        id: string;
        status: string;
        attempts: number;
      }[];
      const events = (await knex('events')
        .where({ type: 'agent.execution_completed' })
        .select('payload')) as {
        payload: string;
      }[];
      const perExecution = new Map<string, number>();
      for (const e of events) {
        const id = JSON.parse(e.payload).data.executionId as string;
        perExecution.set(id, (perExecution.get(id) ?? 0) + 1);
      }
      const jobs = (await knex('jobs').where({ kind: 'agent.execution' }).select('status', 'attempt')) as {
        status: string;
        attempt: number;
      }[];
      console.log(
        `      two workers: ${EXECUTIONS} executions in ${elapsed} ms; ${rows.filter((r) => r.status === 'COMPLETED').length} COMPLETED, ` +
          `attempts ${[...new Set(rows.map((r) => Number(r.attempts)))].join('/')}, ${events.length} agent.execution_completed events, ` +
          `${[...perExecution.values()].filter((n) => n > 1).length} executions with more than one`,
      );
      expect(finished).to.equal(EXECUTIONS);
      expect(rows).to.have.length(EXECUTIONS);
      expect(rows.every((r) => r.status === 'COMPLETED' && Number(r.attempts) === 1)).to.equal(true);
      expect(jobs.every((j) => j.status === 'COMPLETED' && Number(j.attempt) === 1)).to.equal(true);
      expect(events).to.have.length(EXECUTIONS);
      expect(ids.every((id) => perExecution.get(id) === 1)).to.equal(true);
    });
  },
);
