/**
 * One tenant cannot stall another (docs/design.md, "Job runner": "Fairness"), on the test database (SQLite, or
 * Postgres with MERIDIAN_TEST_DB=postgres): the job runner runs inside the API's process, as `npm start` does.
 * Tenant A registers two endpoints on a real HTTP server on 127.0.0.1 that accepts connections and never answers
 * (MERIDIAN_WEBHOOK_TIMEOUT_MS=3000), and makes 22 records: 44 deliveries that each hold a slot for the whole timeout.
 * Meanwhile tenant B's webhook delivery reaches its receiver within 2 s, and its agent run completes within its
 * normal time (measured alone first), because A's deliveries hold at most the per-tenant and per-endpoint caps and
 * agent runs have their own slots.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { expect } from 'chai';
import { systemClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { createJobRunner, type JobRunner } from '../../server/jobs/index.js';
import { DELIVERY_PER_ENDPOINT, DELIVERY_PER_TENANT } from '../../server/services/webhooks/delivery-job.js';
import { client } from '../support/client.js';
import { Receiver } from '../support/receiver.js';
import { makeProject, makeRisk } from '../support/records.js';
import { startTestServer, TEST_DB, type TestServer, type TestTenant } from '../support/server.js';

const TIMEOUT_MS = 3_000;

/** A TCP server that accepts every connection and never answers a byte (a receiver that hangs). */
async function hangingServer(): Promise<{ server: Server; port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    server,
    port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe(`fairness across tenants: hanging receivers of one tenant (${TEST_DB})`, function () {
  this.timeout(120_000);
  let server: TestServer;
  let runner: JobRunner;
  let hanging: Awaited<ReturnType<typeof hangingServer>>;
  let receiver: Receiver;
  let a: TestTenant;
  let b: TestTenant;
  let projectA: string;
  let projectB: string;

  before(async () => {
    const env = {
      MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true',
      MERIDIAN_WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      MERIDIAN_WORKER_POLL_MS: '100',
    };
    server = await startTestServer({ env });
    const config = loadConfig({ NODE_ENV: 'test', ...env });
    runner = createJobRunner({ services: server.meridian.services, clock: systemClock, config }).start();
    hanging = await hangingServer();
    receiver = await Receiver.start();
    a = await server.createTenant('Tenant A (hanging receivers)');
    b = await server.createTenant('Tenant B');
    projectB = (await makeProject(client(server.baseUrl, b.keys.write), { budget: 100, forecastCost: 150 }))
      .id;
    projectA = (await makeProject(client(server.baseUrl, a.keys.write))).id;
  });
  after(async () => {
    await runner?.stop();
    await hanging?.close();
    await receiver?.close();
    await server?.close();
  });

  /** Tenant B: one record made, until its delivery reaches the receiver, in ms. */
  async function deliveryLatency(label: string): Promise<number> {
    const api = client(server.baseUrl, b.keys.write);
    const before = receiver.received.length;
    const t0 = performance.now();
    await makeRisk(api, projectB, { title: `B ${label}` });
    await receiver.waitFor(before + 1, 20_000);
    return performance.now() - t0;
  }

  /** Tenant B: one agent run, from the request until it is COMPLETED, in ms. */
  async function agentRun(): Promise<number> {
    const api = client(server.baseUrl, b.keys.write);
    const t0 = performance.now();
    const res = await api.post('runAgent', '/agents/run', {
      body: { agentId: 'budget-health', depth: 'quick' },
    });
    expect(res.status).to.equal(202);
    for (;;) {
      const got = await api.get('getAgentExecution', `/agents/executions/${res.body.executionId}`);
      if (got.body.status === 'COMPLETED') return performance.now() - t0;
      expect(got.body.status).to.be.oneOf(['PENDING', 'RUNNING']);
      if (performance.now() - t0 > 30_000) throw new Error('agent run did not complete in 30 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it("delivers tenant B's webhook within 2 s and runs its agent in its normal time while A's receivers hang", async () => {
    const admin = client(server.baseUrl, b.keys.admin);
    const hookB = await admin.post('createWebhook', '/webhooks', {
      body: { url: receiver.url('/b'), events: ['risk.created'] },
    });
    expect(hookB.status).to.equal(201);
    // Alone first: the normal times.
    const deliveryAlone = await deliveryLatency('alone');
    const agentAlone = await agentRun();

    // Tenant A: two endpoints that never answer, 22 records, 44 deliveries that each wait out the timeout.
    const adminA = client(server.baseUrl, a.keys.admin);
    for (const path of ['/hang-1', '/hang-2']) {
      const hook = await adminA.post('createWebhook', '/webhooks', {
        body: { url: `http://127.0.0.1:${hanging.port}${path}`, events: ['*'] },
      });
      expect(hook.status).to.equal(201);
    }
    const writerA = client(server.baseUrl, a.keys.write);
    for (let i = 0; i < 22; i++) {
      await makeRisk(writerA, projectA, { title: `A ${i}` });
    }
    // A's deliveries are in flight, holding their slots.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(runner.busy('webhook.delivery')).to.be.within(1, DELIVERY_PER_TENANT);

    const deliveryLoaded = await deliveryLatency('while A hangs');
    const agentLoaded = await agentRun();
    console.log(
      `      fairness (${TEST_DB}): tenant B delivery ${deliveryAlone.toFixed(0)} ms alone → ` +
        `${deliveryLoaded.toFixed(0)} ms while A hangs (44 deliveries, timeout ${TIMEOUT_MS} ms); ` +
        `agent run ${agentAlone.toFixed(0)} ms → ${agentLoaded.toFixed(0)} ms`,
    );
    expect(deliveryLoaded).to.be.below(2_000);
    // Its normal time, with room for a busy machine, and far below one timeout of A's receivers.
    expect(agentLoaded).to.be.below(Math.max(3 * agentAlone, agentAlone + 1_000));
    expect(agentLoaded).to.be.below(TIMEOUT_MS);

    // The caps held: at most DELIVERY_PER_ENDPOINT of A's deliveries per endpoint were ever in flight at once.
    const running = (await server.db
      .knex('jobs')
      .where({ kind: 'webhook.delivery', status: 'RUNNING', tenant_id: a.tenantId })
      .select('group_key')) as { group_key: string }[];
    expect(running.length).to.be.at.most(DELIVERY_PER_TENANT);
    const perEndpoint = new Map<string, number>();
    for (const r of running) perEndpoint.set(r.group_key, (perEndpoint.get(r.group_key) ?? 0) + 1);
    for (const n of perEndpoint.values()) expect(n).to.be.at.most(DELIVERY_PER_ENDPOINT);
  });
});
