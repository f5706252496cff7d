import { expect } from 'chai';
import { client } from '../support/client.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('smoke', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());

  it('creates and lists a project', async () => {
    const t = await server.createTenant();
    const api = client(server.baseUrl, t.keys.write);
    const created = await api.post('createProject', '/projects', { body: { name: 'P', startDate: '2026-01-01', endDate: '2026-12-31' } });
    expect(created.status).to.equal(201);
    const list = await api.get('listProjects', '/projects');
    expect(list.body.data).to.have.length(1);
    const bad = await api.get('listProjects', '/projects', { query: { limit: 500 } });
    expect(bad.status).to.equal(400);
  });
});
