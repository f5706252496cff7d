/**
 * Concurrent writes to one record (docs/design.md, Conventions on the wire), on both databases: 50 parallel PATCHes
 * without `If-Match` are unconditional, so all 50 succeed one after the other (version 1 → 51, one audit row each);
 * 50 parallel PATCHes with `If-Match: "1"` race for one version, so exactly one succeeds and the other 49 get 412
 * `precondition_failed`, never 409.
 */
import { expect } from 'chai';
import type { OperationId } from '../../generated/operations.js';
import { type Api, client } from '../support/client.js';
import { makeProject, makeRisk, uniq } from '../support/records.js';
import { startTestServer, TEST_DB, type TestServer } from '../support/server.js';

const N = 50;

/** One versioned record type: how to make a fresh record and what the i-th concurrent PATCH changes. */
interface Versioned {
  name: string;
  update: OperationId;
  get: OperationId;
  resourceType: string;
  make: () => Promise<string>;
  change: (i: number) => Record<string, unknown>;
}

describe(`concurrent writes to one record (${N} at once, ${TEST_DB})`, function () {
  this.timeout(120_000);
  let server: TestServer;
  let api: Api;
  let admin: Api;
  before(async () => {
    server = await startTestServer();
    const tenant = await server.createTenant(undefined, { rateLimitPerMinute: 100_000 });
    api = client(server.baseUrl, tenant.keys.write);
    admin = client(server.baseUrl, tenant.keys.admin);
  });
  after(async () => server.close());

  const created = async (op: OperationId, path: string, body: Record<string, unknown>, as = api) => {
    const res = await as.post(op, path, { body });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as string;
  };
  const resource = () => created('createResource', '/resources', { name: uniq('Person') });

  const kinds: Versioned[] = [
    {
      name: 'project',
      update: 'updateProject',
      get: 'getProject',
      resourceType: 'project',
      make: async () => (await makeProject(api)).id,
      change: (i) => ({ progress: i }),
    },
    {
      name: 'risk',
      update: 'updateRisk',
      get: 'getRisk',
      resourceType: 'risk',
      make: async () => (await makeRisk(api, (await makeProject(api)).id)).id,
      change: (i) => ({ title: `Risk ${i}` }),
    },
    {
      name: 'milestone',
      update: 'updateMilestone',
      get: 'getMilestone',
      resourceType: 'milestone',
      make: async () =>
        created('createMilestone', `/projects/${(await makeProject(api)).id}/milestones`, {
          name: 'M',
          dueDate: '2026-09-01',
        }),
      change: (i) => ({ name: `Milestone ${i}` }),
    },
    {
      name: 'issue',
      update: 'updateIssue',
      get: 'getIssue',
      resourceType: 'issue',
      make: async () =>
        created('createIssue', '/issues', { projectId: (await makeProject(api)).id, title: 'I' }),
      change: (i) => ({ title: `Issue ${i}` }),
    },
    {
      name: 'resource',
      update: 'updateResource',
      get: 'getResource',
      resourceType: 'resource',
      make: resource,
      change: (i) => ({ name: `Person ${i}` }),
    },
    {
      name: 'allocation',
      update: 'updateAllocation',
      get: 'getAllocation',
      resourceType: 'allocation',
      make: async () =>
        created('createAllocation', '/allocations', {
          resourceId: await resource(),
          projectId: (await makeProject(api)).id,
          startDate: '2026-01-05',
          endDate: '2026-03-27',
          allocationPercent: 80,
        }),
      change: (i) => ({ allocationPercent: i }),
    },
    {
      name: 'webhook endpoint',
      update: 'updateWebhook',
      get: 'getWebhook',
      resourceType: 'webhook',
      make: () =>
        created(
          'createWebhook',
          '/webhooks',
          { url: 'https://hooks.example.com/concurrency', events: ['risk.created'] },
          admin,
        ),
      change: (i) => ({ description: `Endpoint ${i}` }),
    },
  ];

  const pathOf = (kind: Versioned, id: string) =>
    `/${kind.resourceType === 'webhook' ? 'webhooks' : `${kind.resourceType}s`}/${id}`;
  const as = (kind: Versioned) => (kind.resourceType === 'webhook' ? admin : api);

  /** Sends the N PATCHes at once and counts the answers by status. */
  async function race(kind: Versioned, id: string, headers: Record<string, string>) {
    const responses = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        as(kind).patch(kind.update, pathOf(kind, id), { body: kind.change(i + 1), headers }),
      ),
    );
    const counts: Record<number, number> = {};
    for (const res of responses) counts[res.status] = (counts[res.status] ?? 0) + 1;
    return { responses, counts };
  }

  async function auditCount(kind: Versioned, id: string): Promise<number> {
    const res = await admin.get('listAuditLogs', '/audit-logs', {
      query: {
        resourceType: kind.resourceType,
        resourceId: id,
        action: `${kind.resourceType}.updated`,
        limit: 100,
      },
    });
    expect(res.status).to.equal(200);
    return res.body.pagination.total as number;
  }

  for (const kind of kinds) {
    it(`${kind.name}: ${N} PATCHes without If-Match all succeed, one after the other`, async () => {
      const id = await kind.make();
      const { responses, counts } = await race(kind, id, {});
      console.log(`      ${kind.name} without If-Match (${TEST_DB}): ${JSON.stringify(counts)}`);
      expect(counts, JSON.stringify(responses.find((r) => r.status !== 200)?.body)).to.deep.equal({
        200: N,
      });
      const versions = responses.map((r) => r.body.version as number).sort((a, b) => a - b);
      expect(versions).to.deep.equal(Array.from({ length: N }, (_, i) => i + 2));
      const final = await as(kind).get(kind.get, pathOf(kind, id));
      expect(final.body.version).to.equal(N + 1);
      expect(await auditCount(kind, id)).to.equal(N);
    });

    it(`${kind.name}: ${N} PATCHes with the same If-Match: one succeeds, ${N - 1} get 412`, async () => {
      const id = await kind.make();
      const { responses, counts } = await race(kind, id, { 'If-Match': '"1"' });
      console.log(`      ${kind.name} with If-Match (${TEST_DB}): ${JSON.stringify(counts)}`);
      expect(counts).to.deep.equal({ 200: 1, 412: N - 1 });
      for (const res of responses.filter((r) => r.status === 412)) {
        expect(res.body.code).to.equal('precondition_failed');
      }
      const final = await as(kind).get(kind.get, pathOf(kind, id));
      expect(final.body.version).to.equal(2);
      expect(await auditCount(kind, id)).to.equal(1);
    });
  }
});
