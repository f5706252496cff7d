/**
 * Webhook signing secrets at rest (docs/webhooks.md, "Events and webhooks": "Secrets at rest"), on the test database
 * (SQLite, or Postgres with MERIDIAN_TEST_DB=postgres): the `webhook_endpoints` table holds no `whsec_` after
 * create and rotate; a delivery is still signed with the secrets the API showed; `secrets rotate` (resealAllSecrets)
 * moves every value to a new key while the previous one still opens them; the migration seals rows stored before
 * encryption, and refuses to run without a key when there are any.
 */
import { expect } from 'chai';
import { systemClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { newSecretKey, parseSecretKey, SecretBox } from '../../server/crypto/secret-box.js';
import {
  down as decryptSecrets,
  up as encryptSecrets,
} from '../../server/db/migrations/20261125000300_encrypt_webhook_secrets.js';
import { DeliveryWorker, openSecrets, resealAllSecrets } from '../../server/services/webhooks/index.js';
import { client } from '../support/client.js';
import { Receiver, verify } from '../support/receiver.js';
import { startTestServer, TEST_DB, type TestServer } from '../support/server.js';

describe(`webhook secrets encrypted at rest (${TEST_DB})`, function () {
  this.timeout(30_000);
  const keyA = newSecretKey();
  const keyB = newSecretKey();
  let server: TestServer;
  let receiver: Receiver;

  before(async () => {
    server = await startTestServer({ env: { MERIDIAN_SECRET_KEY: keyA } });
    receiver = await Receiver.start();
  });
  after(async () => {
    await receiver.close();
    await server.close();
  });

  const storedRows = async () =>
    (await server.db.knex('webhook_endpoints').select('id', 'secret', 'previous_secret')) as {
      id: string;
      secret: string;
      previous_secret: string | null;
    }[];

  it('stores no whsec_ in webhook_endpoints, and signs deliveries with the secrets the API showed', async () => {
    const tenant = await server.createTenant();
    const api = client(server.baseUrl, tenant.keys.admin);
    const created = await api.post('createWebhook', '/webhooks', {
      body: { url: receiver.url('/at-rest'), events: ['*'] },
    });
    expect(created.status).to.equal(201);
    const rotated = await api.post('rotateWebhookSecret', `/webhooks/${created.body.id}/rotate-secret`);
    expect(rotated.status).to.equal(200);
    const rows = await storedRows();
    expect(rows.length).to.be.at.least(1);
    const text = JSON.stringify(rows);
    expect(text).to.not.contain('whsec_');
    expect(text).to.not.contain(created.body.secret.slice(6));
    expect(text).to.not.contain(rotated.body.secret.slice(6));
    const row = rows.find((r) => r.id === created.body.id);
    expect(row?.secret).to.match(/^enc:v1:/);
    expect(row?.previous_secret).to.match(/^enc:v1:/);

    // A delivery during the rotation carries both signatures; each secret verifies it.
    const worker = new DeliveryWorker({
      db: server.db,
      clock: systemClock,
      config: loadConfig({
        NODE_ENV: 'test',
        MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true',
        MERIDIAN_SECRET_KEY: keyA,
      }),
    });
    await api.post('testWebhook', `/webhooks/${created.body.id}/test`);
    await worker.drain();
    await receiver.waitFor(1);
    const got = receiver.received.at(-1);
    expect(got).to.not.equal(undefined);
    if (!got) return;
    expect(verify(rotated.body.secret, got).event).to.be.a('string');
    expect(verify(created.body.secret, got).event).to.be.a('string');
  });

  it('re-encrypts every secret under a new key (secrets rotate) while the previous key still opens them', async () => {
    const tenant = await server.createTenant();
    const api = client(server.baseUrl, tenant.keys.admin);
    const created = await api.post('createWebhook', '/webhooks', {
      body: { url: receiver.url('/rotate'), events: ['*'] },
    });
    const before = (await storedRows()).find((r) => r.id === created.body.id);
    const rotating = new SecretBox({
      current: parseSecretKey(keyB, 'B'),
      previous: parseSecretKey(keyA, 'A'),
    });
    const report = await resealAllSecrets({ db: server.db, secrets: rotating });
    expect(report.endpoints).to.equal((await storedRows()).length);
    expect(report.resealed).to.equal(report.endpoints);
    const after = (await storedRows()).find((r) => r.id === created.body.id);
    expect(after?.secret).to.not.equal(before?.secret);
    // Only the new key is needed now.
    const onlyB = new SecretBox({ current: parseSecretKey(keyB, 'B'), previous: null });
    const opened = openSecrets(onlyB, created.body.id, {
      secret: after?.secret as string,
      previousSecret: null,
      previousSecretExpiresAt: null,
    });
    expect(opened.secret).to.equal(created.body.secret);
    // A second run has nothing to do.
    expect((await resealAllSecrets({ db: server.db, secrets: rotating })).resealed).to.equal(0);
  });

  it('seals rows stored before encryption in the migration, and refuses to without a key', async () => {
    const tenant = await server.createTenant();
    const api = client(server.baseUrl, tenant.keys.admin);
    const created = await api.post('createWebhook', '/webhooks', {
      body: { url: receiver.url('/legacy'), events: ['*'] },
    });
    // As a row written before encryption: the plaintext secret.
    await server.db
      .knex('webhook_endpoints')
      .where({ id: created.body.id })
      .update({ secret: 'whsec_bGVnYWN5' });
    let refused: unknown;
    try {
      await encryptSecrets(server.db.knex, { secrets: null });
    } catch (err) {
      refused = err;
    }
    expect(String(refused)).to.match(/MERIDIAN_SECRET_KEY/);
    const box = new SecretBox({ current: parseSecretKey(keyB, 'B'), previous: parseSecretKey(keyA, 'A') });
    await encryptSecrets(server.db.knex, { secrets: box });
    const row = (await storedRows()).find((r) => r.id === created.body.id);
    expect(row?.secret).to.match(/^enc:v1:/);
    expect(JSON.stringify(await storedRows())).to.not.contain('whsec_');
    expect(box.open(row?.secret as string, `webhook_endpoints:${created.body.id}`)).to.equal(
      'whsec_bGVnYWN5',
    );
    // Down opens them again (and up seals them once more).
    await decryptSecrets(server.db.knex, { secrets: box });
    expect((await storedRows()).find((r) => r.id === created.body.id)?.secret).to.equal('whsec_bGVnYWN5');
    await encryptSecrets(server.db.knex, { secrets: box });
    expect(JSON.stringify(await storedRows())).to.not.contain('whsec_');
  });
});
