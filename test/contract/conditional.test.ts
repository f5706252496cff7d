/**
 * Conditional requests on single records: `If-None-Match` → 304 on GET (weak comparison, RFC 9110 §13.1.2), and
 * the `ETag` a PATCH returns is the one the next GET matches.
 */
import { expect } from 'chai';
import type { OperationId } from '../../generated/operations.js';
import { type Api, client } from '../support/client.js';
import { makeProject, makeRisk } from '../support/records.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('conditional GET (If-None-Match)', () => {
  let server: TestServer;
  let api: Api;
  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl, (await server.createTenant()).keys.write);
  });
  after(async () => server.close());

  async function records(): Promise<[OperationId, OperationId, string, Record<string, unknown>][]> {
    const project = await makeProject(api);
    const risk = await makeRisk(api, project.id);
    const milestone = (
      await api.post('createMilestone', `/projects/${project.id}/milestones`, {
        body: { name: 'M', dueDate: '2026-09-01' },
      })
    ).body;
    const issue = (await api.post('createIssue', '/issues', { body: { projectId: project.id, title: 'I' } }))
      .body;
    return [
      ['getProject', 'updateProject', `/projects/${project.id}`, { progress: 10 }],
      ['getRisk', 'updateRisk', `/risks/${risk.id}`, { likelihood: 5 }],
      ['getMilestone', 'updateMilestone', `/milestones/${milestone.id}`, { name: 'M2' }],
      ['getIssue', 'updateIssue', `/issues/${issue.id}`, { priority: 'HIGH' }],
    ];
  }

  it('answers 304 without a body while the record is unchanged, and 200 once it changed', async () => {
    for (const [get, update, path, change] of await records()) {
      const first = await api.get(get, path);
      expect(first.headers.get('etag'), get).to.equal('"1"');
      const same = await api.get(get, path, { headers: { 'If-None-Match': '"1"' } });
      expect(same.status, get).to.equal(304);
      expect(same.body, get).to.equal(undefined);
      expect(same.headers.get('etag')).to.equal('"1"');
      expect((await api.get(get, path, { headers: { 'If-None-Match': 'W/"1"' } })).status).to.equal(304);
      expect((await api.get(get, path, { headers: { 'If-None-Match': '"7", *' } })).status).to.equal(304);
      const patched = await api.patch(update, path, { body: change, headers: { 'If-Match': '"1"' } });
      expect(patched.headers.get('etag')).to.equal('"2"');
      const changed = await api.get(get, path, { headers: { 'If-None-Match': '"1"' } });
      expect(changed.status, get).to.equal(200);
      expect(changed.body.version).to.equal(2);
      expect(
        (await api.get(get, path, { headers: { 'If-None-Match': patched.headers.get('etag') as string } }))
          .status,
      ).to.equal(304);
    }
  });
});
