/**
 * Two `npm run worker` processes on one Postgres (docs/design.md, Job runner): 1,000 events to a receiver that
 * always answers 200; each is delivered exactly once (counted by webhook-id), because workers claim with FOR UPDATE
 * SKIP LOCKED. Postgres only (MERIDIAN_TEST_DB=postgres): SQLite is the one-process embedded default.
 */
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { v7 as uuidv7 } from 'uuid';
import { systemClock } from '../../server/clock.js';
import { buildServices } from '../../server/services/index.js';
import { newSecret } from '../../server/services/webhooks/index.js';
import { startWorker, stopProcess } from '../support/processes.js';
import { Receiver, verify } from '../support/receiver.js';
import { openTestDatabase, TEST_DB } from '../support/server.js';

(TEST_DB === 'postgres' ? describe : describe.skip)('two worker processes on one Postgres', function () {
  this.timeout(240_000);
  const workers: ChildProcess[] = [];
  let receiver: Receiver;
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  before(async () => {
    database = await openTestDatabase('postgres');
    receiver = await Receiver.start();
  });
  after(async () => {
    for (const w of workers) await stopProcess(w);
    await receiver.close();
    await database.dispose();
  });

  it('delivers 1,000 events exactly once each', async () => {
    const { knex } = database.db;
    const schema = ((await knex.raw('select current_schema() as s')) as { rows: { s: string }[] }).rows[0]?.s;
    const now = new Date().toISOString();
    const tenantId = uuidv7();
    await knex('tenants').insert({ id: tenantId, name: 'Two workers', created_at: now, updated_at: now });
    const secret = newSecret();
    await knex('webhook_endpoints').insert({
      id: uuidv7(),
      tenant_id: tenantId,
      url: receiver.url(),
      events: JSON.stringify(['*']),
      enabled: true,
      secret,
      version: 1,
      created_at: now,
      updated_at: now,
    });
    const url = new URL(process.env.TEST_DATABASE_URL as string);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const env = { DATABASE_URL: url.toString(), MERIDIAN_WORKER_POLL_MS: '50' };
    workers.push(await startWorker(env));
    workers.push(await startWorker(env));

    const { events } = buildServices(
      { db: database.db, clock: systemClock },
      { defaultRateLimitPerMinute: 1_000 },
    );
    const EVENTS = 1_000;
    const ids = new Set<string>();
    for (let batch = 0; batch < 10; batch++) {
      await knex.transaction(async (trx) => {
        for (let i = 0; i < EVENTS / 10; i++) {
          const event = await events.emit(
            trx,
            tenantId,
            'risk.created',
            { n: batch * 100 + i },
            new Date().toISOString(),
          );
          ids.add(event.id);
        }
      });
    }
    await receiver.waitFor(EVENTS, 180_000);
    // Give a double send, if there were one, time to show.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const counts = new Map<string, number>();
    for (const got of receiver.received) {
      const id = got.headers['webhook-id'] as string;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const duplicates = [...counts.values()].filter((n) => n > 1).length;
    const [pending] = await knex('webhook_deliveries').whereNot('status', 'SUCCEEDED').count({ n: '*' });
    console.log(
      `      two workers: ${EVENTS} events, ${receiver.received.length} requests, ${counts.size} distinct webhook-ids, ` +
        `${duplicates} duplicated`,
    );
    for (const got of receiver.received.slice(0, 50)) verify(secret, got);
    expect(counts.size).to.equal(EVENTS);
    expect([...ids].every((id) => counts.get(id) === 1)).to.equal(true);
    expect(receiver.received).to.have.length(EVENTS);
    expect(Number((pending as { n: unknown }).n)).to.equal(0);
  });
});
