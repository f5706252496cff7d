/**
 * Many processes on one Postgres (README.md, "How it scales"): two API processes (`server/main.ts`) and two `npm
 * run worker` processes (`server/worker.ts`) over one database, as a scaled-out deployment runs them. Checks what
 * they share:
 * - one rate limit: 1,200 requests of one tenant spread over both API processes let 1,000 through;
 * - every webhook event delivered once, to a real HTTP receiver, by whichever worker claims it;
 * - the missed-milestone sweep run once: both workers sweep at start, the milestones are marked (and announced)
 *   by one of them, once each;
 * - every agent run executed once (one attempt, one completion event) whichever worker claims it;
 * - a key revoked through one API process refused by the other within AUTH_CACHE_TTL_MS (README.md, "How it
 *   scales": 5 s).
 * Postgres only (MERIDIAN_TEST_DB=postgres). Waits are bounded and generous; nothing asserts a duration.
 */
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { systemClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { systemActor } from '../../server/services/context.js';
import { AUTH_CACHE_TTL_MS } from '../../server/services/identity/index.js';
import { buildServices } from '../../server/services/index.js';
import { WINDOW_MS } from '../../server/services/rate-limits.js';
import { client } from '../support/client.js';
import { type Started, startEntryPoint, stopProcess } from '../support/processes.js';
import { Receiver, verify } from '../support/receiver.js';
import { openTestDatabase, TEST_DB } from '../support/server.js';

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

(TEST_DB === 'postgres' ? describe : describe.skip)(
  '2 API processes and 2 workers on one Postgres',
  function () {
    this.timeout(600_000);
    const processes: ChildProcess[] = [];
    // The two API processes' /v1 URLs and the environment they share, set by the first test.
    const apis: string[] = [];
    let receiver: Receiver;
    let database: Awaited<ReturnType<typeof openTestDatabase>>;
    before(async () => {
      database = await openTestDatabase('postgres');
      receiver = await Receiver.start();
    });
    after(async () => {
      for (const p of processes) await stopProcess(p, 'SIGTERM', 30_000);
      await receiver?.close();
      await database?.dispose();
    });

    it('share one rate limit, deliver every event once and run the missed-milestone sweep once', async () => {
      const { knex } = database.db;
      const schema = ((await knex.raw('select current_schema() as s')) as { rows: { s: string }[] }).rows[0]
        ?.s;
      const url = new URL(process.env.TEST_DATABASE_URL as string);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const common = {
        DATABASE_URL: url.toString(),
        MERIDIAN_IMPORT_DEMO: 'false',
        MERIDIAN_WORKER: 'false',
        // The receiver listens on 127.0.0.1.
        MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true',
      };

      // Tenants and keys, made through the services over the same database.
      const services = buildServices(
        { db: database.db, clock: systemClock },
        loadConfig({ NODE_ENV: 'test', MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true' }),
      );
      const keyOf = async (name: string) => {
        const { tenant } = await services.tenants.create({ name, userName: 'Owner' });
        return (
          await services.apiKeys.create(systemActor(tenant.id), {
            name: 'admin',
            scopes: ['read', 'write', 'admin'],
          })
        ).key;
      };
      const busyKey = await keyOf('Rate-limited tenant');
      const eventsKey = await keyOf('Events tenant');

      for (let i = 0; i < 2; i++) {
        const api = await startEntryPoint(
          'server/main.ts',
          { ...common, PORT: '0' },
          /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/,
          120_000,
        );
        processes.push(api.child);
        apis.push(api.match[1] as string);
      }

      // The events tenant: an endpoint for every event, a project and 20 milestones already past due.
      const a = client(apis[0] as string, eventsKey);
      const b = client(apis[1] as string, eventsKey);
      const endpoint = await a.post('createWebhook', '/webhooks', {
        body: { url: receiver.url(), events: ['*'] },
      });
      expect(endpoint.status).to.equal(201);
      const project = await b.post('createProject', '/projects', {
        body: { name: 'Scale-out', startDate: '2025-01-01', endDate: '2027-12-31' },
      });
      const MILESTONES = 20;
      for (let i = 0; i < MILESTONES; i++) {
        const m = await (i % 2 ? a : b).post('createMilestone', `/projects/${project.body.id}/milestones`, {
          body: { name: `Overdue ${i}`, dueDate: '2025-06-30' },
        });
        expect(m.status).to.equal(201);
      }

      // Two workers: each sweeps at start (the advisory lock lets one of them mark the milestones) and delivers.
      const workers: Started[] = [];
      for (let i = 0; i < 2; i++) {
        const worker = await startEntryPoint(
          'server/worker.ts',
          { ...common, MERIDIAN_WORKER_POLL_MS: '50', LOG_LEVEL: 'info' },
          /running jobs/,
          120_000,
        );
        processes.push(worker.child);
        workers.push(worker);
      }
      const RISKS = 50;
      for (let i = 0; i < RISKS; i += 10) {
        const created = await Promise.all(
          Array.from({ length: 10 }, (_, j) =>
            (j % 2 ? a : b).post('createRisk', '/risks', {
              body: { title: `Risk ${i + j}`, projectId: project.body.id, likelihood: 3, impact: 4 },
            }),
          ),
        );
        expect(created.map((r) => r.status)).to.deep.equal(Array(10).fill(201));
      }
      await receiver.waitFor(MILESTONES + RISKS, 240_000);
      // Time for a double send, if there were one, to show (nothing asserts on this duration).
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const byId = new Map<string, number>();
      const byType = new Map<string, number>();
      for (const got of receiver.received) {
        verify(endpoint.body.secret as string, got);
        const id = got.headers['webhook-id'] as string;
        byId.set(id, (byId.get(id) ?? 0) + 1);
        const type = (JSON.parse(got.body) as { event: string }).event;
        byType.set(type, (byType.get(type) ?? 0) + 1);
      }
      const missedEvents = await knex('events').where({ type: 'milestone.missed' }).count({ n: '*' });
      // Both workers swept at start; the milestones each marked (from their logs) add up to one sweep's work.
      const markedPerWorker = () =>
        workers.map((w) =>
          [...w.output().matchAll(/"marked":(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0),
        );
      await until(
        'the sweep to be logged',
        async () => markedPerWorker().reduce((s, n) => s + n, 0) >= MILESTONES,
        60_000,
      );

      // One rate limit across both API processes: 1,200 requests of one tenant, alternating, 20 in flight.
      const busy = apis.map((base) => client(base, busyKey));
      const statuses: { status: number; at: number }[] = [];
      const first = Date.now();
      for (let i = 0; i < 1_200; i += 20) {
        const batch = await Promise.all(
          Array.from({ length: 20 }, (_, j) =>
            (busy[j % 2] as ReturnType<typeof client>).get('getMe', '/me'),
          ),
        );
        for (const res of batch) statuses.push({ status: res.status, at: Date.now() });
      }
      const elapsed = Date.now() - first;
      const passed = statuses.filter((s) => s.status === 200).length;
      const refused = statuses.filter((s) => s.status === 429).length;

      console.log(
        `      2 API + 2 workers on Postgres: rate limit ${passed} of 1,200 passed (${refused} × 429) in ${(elapsed / 1000).toFixed(1)} s; ` +
          `${receiver.received.length} deliveries, ${byId.size} distinct webhook-ids (${byType.get('risk.created') ?? 0} risk.created, ` +
          `${byType.get('milestone.missed') ?? 0} milestone.missed); sweep: ${markedPerWorker().join(' + ')} milestones marked`,
      );
      expect(byId.size).to.equal(MILESTONES + RISKS);
      expect([...byId.values()].every((n) => n === 1)).to.equal(true);
      expect(byType.get('milestone.missed')).to.equal(MILESTONES);
      expect(byType.get('risk.created')).to.equal(RISKS);
      expect(Number((missedEvents[0] as { n: unknown }).n)).to.equal(MILESTONES);
      expect(markedPerWorker().reduce((s, n) => s + n, 0)).to.equal(MILESTONES);
      expect(passed + refused).to.equal(1_200);
      if (elapsed < WINDOW_MS) {
        // All 1,200 inside one window: exactly the tenant's limit passed, whichever process answered.
        expect(passed).to.equal(1_000);
      } else {
        // A very slow machine spread them over more than a window: no 60 s of it let more than 1,000 through.
        const ok = statuses.filter((s) => s.status === 200).map((s) => s.at);
        for (let i = 1000; i < ok.length; i++)
          expect((ok[i] as number) - (ok[i - 1000] as number)).to.be.at.least(WINDOW_MS - 1_000);
      }
    });

    it('run each agent run once and refuse a revoked key in the other process within the cache bound', async () => {
      expect(apis, 'the first test started the processes').to.have.length(2);
      // A tenant of its own, made through the first API process with a key the services create.
      const services = buildServices(
        { db: database.db, clock: systemClock },
        loadConfig({ NODE_ENV: 'test', MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true' }),
      );
      const { tenant } = await services.tenants.create({ name: 'Agents tenant', userName: 'Owner' });
      const key = (
        await services.apiKeys.create(systemActor(tenant.id), {
          name: 'admin',
          scopes: ['read', 'write', 'admin'],
        })
      ).key;
      const [a, b] = apis.map((base) => client(base, key)) as [
        ReturnType<typeof client>,
        ReturnType<typeof client>,
      ];
      const before = receiver.received.length;
      const hook = await a.post('createWebhook', '/webhooks', {
        body: { url: receiver.url(), events: ['agent.execution_completed'] },
      });
      expect(hook.status).to.equal(201);
      for (let i = 0; i < 5; i++)
        await b.post('createProject', '/projects', {
          body: {
            name: `Agent project ${i}`,
            startDate: '2026-01-01',
            endDate: '2026-12-31',
            budget: 100_000,
          },
        });
      const RUNS = 8;
      const runs = await Promise.all(
        Array.from({ length: RUNS }, (_, i) =>
          (i % 2 ? a : b).post('runAgent', '/agents/run', { body: { agentId: 'portfolio-health' } }),
        ),
      );
      expect(runs.map((r) => r.status)).to.deep.equal(Array(RUNS).fill(202));
      const ids = runs.map((r) => r.body.executionId as string);
      await receiver.waitFor(before + RUNS, 120_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const completions = receiver.received
        .slice(before)
        .map((got) => verify(hook.body.secret as string, got));
      const perExecution = new Map<string, number>();
      for (const event of completions)
        perExecution.set(event.data.executionId, (perExecution.get(event.data.executionId) ?? 0) + 1);
      expect([...perExecution.keys()].sort()).to.deep.equal([...ids].sort());
      expect([...perExecution.values()].every((n) => n === 1)).to.equal(true);
      for (const id of ids) {
        const execution = await a.get('getAgentExecution', `/agents/executions/${id}`);
        expect(execution.body).to.include({ status: 'COMPLETED', attempts: 1 });
      }

      // A key used on B (so B holds it), revoked through A: B refuses it within the documented bound.
      const made = await a.post('createApiKey', '/api-keys', {
        body: { name: 'short-lived', scopes: ['read'] },
      });
      expect(made.status).to.equal(201);
      const shortLived = client(apis[1] as string, made.body.key as string);
      expect((await shortLived.get('getMe', '/me')).status).to.equal(200);
      const revokedAt = Date.now();
      expect((await a.delete('revokeApiKey', `/api-keys/${made.body.id}`)).status).to.equal(204);
      expect((await client(apis[0] as string, made.body.key as string).get('getMe', '/me')).status).to.equal(
        401,
      );
      let refusedAfter = -1;
      while (Date.now() - revokedAt < AUTH_CACHE_TTL_MS + 5_000) {
        if ((await shortLived.get('getMe', '/me')).status === 401) {
          refusedAfter = Date.now() - revokedAt;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      console.log(
        `      ${RUNS} agent runs over 2 workers: ${perExecution.size} completions, each once, attempts 1; ` +
          `a revoked key refused by the other API process after ${refusedAfter} ms (bound ${AUTH_CACHE_TTL_MS} ms)`,
      );
      expect(refusedAfter).to.be.within(0, AUTH_CACHE_TTL_MS + 1_000);
    });
  },
);
