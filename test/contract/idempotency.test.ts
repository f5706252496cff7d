/**
 * Idempotency-Key on POST (docs/design.md; spec components/parameters/IdempotencyKey).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ManualClock } from '../../server/clock.js';
import { client } from '../support/client.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('Idempotency-Key', () => {
  let server: TestServer;
  const clock = new ManualClock('2026-03-10T09:00:00.000Z');
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(async () => server.close());

  const project = {
    name: 'Idempotent bridge',
    startDate: '2026-02-01',
    endDate: '2026-09-30',
    budget: 12_500_000,
  };

  it('replays the first response for the same key and body, without creating twice', async () => {
    const t = await server.createTenant();
    const api = client(server.baseUrl, t.keys.write);
    const key = randomUUID();
    const first = await api.post('createProject', '/projects', {
      body: project,
      headers: { 'Idempotency-Key': key },
    });
    const again = await api.post('createProject', '/projects', {
      body: project,
      headers: { 'Idempotency-Key': key },
    });
    expect(first.status).to.equal(201);
    expect(first.headers.get('idempotent-replayed')).to.equal(null);
    expect(again.status).to.equal(201);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body).to.deep.equal(first.body);
    expect(again.headers.get('location')).to.equal(first.headers.get('location'));
    expect(again.headers.get('etag')).to.equal(first.headers.get('etag'));
    const list = await api.get('listProjects', '/projects');
    expect(list.body.pagination.total).to.equal(1);
  });

  it('answers 422 idempotency_key_reused for the same key with another body', async () => {
    const t = await server.createTenant();
    const api = client(server.baseUrl, t.keys.write);
    const key = randomUUID();
    await api.post('createProject', '/projects', { body: project, headers: { 'Idempotency-Key': key } });
    const other = await api.post('createProject', '/projects', {
      body: { ...project, name: 'Another' },
      headers: { 'Idempotency-Key': key },
    });
    expect(other.status).to.equal(422);
    expect(other.body.code).to.equal('idempotency_key_reused');
    expect((await api.get('listProjects', '/projects')).body.pagination.total).to.equal(1);
  });

  it('answers 409 conflict while the first request with the key is in flight', async () => {
    const t = await server.createTenant();
    const api = client(server.baseUrl, t.keys.write);
    const key = randomUUID();
    const { fingerprintOf } = await import('../../server/services/idempotency.js');
    // Reserve the key as the first request would, and leave it in flight.
    await server.meridian.services.idempotency.begin(
      t.tenantId,
      key,
      fingerprintOf('POST', '/v1/projects', JSON.stringify(project)),
    );
    const second = await api.post('createProject', '/projects', {
      body: project,
      headers: { 'Idempotency-Key': key },
    });
    expect(second.status).to.equal(409);
    expect(second.body.code).to.equal('conflict');
    expect(second.headers.get('retry-after')).to.equal('1');
    // A reservation whose process stopped is never taken over while the key lives: its change may have committed.
    clock.advance(23 * 3_600_000);
    const later = await api.post('createProject', '/projects', {
      body: project,
      headers: { 'Idempotency-Key': key },
    });
    expect(later.status).to.equal(409);
    expect((await api.get('listProjects', '/projects')).body.pagination.total).to.equal(0);
  });

  it('stores nothing for a request that fails, so the key can be used again', async () => {
    const t = await server.createTenant();
    const api = client(server.baseUrl, t.keys.write);
    const key = randomUUID();
    const invalid = await api.post('createProject', '/projects', {
      body: { name: 'No dates' },
      headers: { 'Idempotency-Key': key },
    });
    expect(invalid.status).to.equal(400);
    const rule = await api.post('createProject', '/projects', {
      body: { ...project, endDate: '2025-01-01' },
      headers: { 'Idempotency-Key': key },
    });
    expect(rule.status).to.equal(422);
    const ok = await api.post('createProject', '/projects', {
      body: project,
      headers: { 'Idempotency-Key': key },
    });
    expect(ok.status).to.equal(201);
    expect(ok.headers.get('idempotent-replayed')).to.equal(null);
  });

  it('forgets a key after 24 hours (injected clock)', async () => {
    const t = await server.createTenant();
    const api = client(server.baseUrl, t.keys.write);
    const key = randomUUID();
    const first = await api.post('createProject', '/projects', {
      body: project,
      headers: { 'Idempotency-Key': key },
    });
    clock.advance(24 * 3_600_000 - 1);
    const replay = await api.post('createProject', '/projects', {
      body: project,
      headers: { 'Idempotency-Key': key },
    });
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.body.id).to.equal(first.body.id);
    clock.advance(1);
    const fresh = await api.post('createProject', '/projects', {
      body: { ...project, name: 'A day later' },
      headers: { 'Idempotency-Key': key },
    });
    expect(fresh.status).to.equal(201);
    expect(fresh.headers.get('idempotent-replayed')).to.equal(null);
    expect(fresh.body.id).to.not.equal(first.body.id);
  });

  it('scopes keys per tenant', async () => {
    const a = await server.createTenant();
    const b = await server.createTenant();
    const key = randomUUID();
    const ra = await client(server.baseUrl, a.keys.write).post('createProject', '/projects', {
      body: project,
      headers: { 'Idempotency-Key': key },
    });
    const rb = await client(server.baseUrl, b.keys.write).post('createProject', '/projects', {
      body: project,
      headers: { 'Idempotency-Key': key },
    });
    expect(ra.status).to.equal(201);
    expect(rb.status).to.equal(201);
    expect(rb.headers.get('idempotent-replayed')).to.equal(null);
    expect(rb.body.id).to.not.equal(ra.body.id);
  });
});
