/**
 * The whole resource tree against the real server (test/support/server.ts): every operation of the spec is reached
 * through its resource method, on one tenant, in an order that builds the records each call needs. A recording
 * `fetch` maps each request back to its operation, and the test ends by comparing the operations reached with the
 * spec's.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../test/support/server.js';
import {
  Meridian,
  NotFoundError,
  type OperationId,
  operationTable,
  PermissionDeniedError,
} from '../src/index.js';
import { rejection } from './helpers.js';

/** The operation a request is for: its method and a path that matches the operation's template. */
function operationOf(method: string, pathname: string): OperationId | undefined {
  const path = pathname.replace(/^\/v1/, '');
  return (Object.keys(operationTable) as OperationId[]).find((id) => {
    const op = operationTable[id];
    const pattern = new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return op.method === method && pattern.test(path);
  });
}

describe('sdk-ts: the whole resource tree against the live server', function () {
  this.timeout(60_000);
  let server: TestServer;
  let receiver: http.Server;
  before(async () => {
    server = await startTestServer();
    // A webhook endpoint that accepts every delivery (for webhooks.test).
    receiver = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await server.close();
  });

  it('reaches every operation through client.<resource>.<method>()', async () => {
    const tenant = await server.createTenant();
    const reached = new Set<OperationId>();
    const client = new Meridian({
      apiKey: tenant.keys.admin,
      baseUrl: server.baseUrl,
      maxRetries: 0,
      fetch: async (request) => {
        const id = operationOf(request.method, new URL(request.url).pathname);
        if (id) reached.add(id);
        return fetch(request);
      },
    });
    const day = (d: number) => `2026-0${d}-01`;

    expect((await client.me.retrieve()).tenant.id).to.equal(tenant.tenantId);
    await client.tenant.retrieve();
    await client.tenant.update({ settings: {} });

    const project = await client.projects.create({ name: 'Tree walk', startDate: day(1), endDate: day(9) });
    expect((await client.projects.list()).data.map((p) => p.id)).to.include(project.id);
    await client.projects.retrieve(project.id);
    await client.projects.update(project.id, { progress: 5 });
    const report = await client.projects.statusReports.create(project.id, {
      asOf: day(2),
      status: 'ON_TRACK',
    });
    expect((await client.projects.statusReports.list(project.id)).data).to.have.length(1);
    await client.statusReports.list({ projectId: project.id });
    await client.statusReports.retrieve(report.id);

    const milestone = await client.projects.milestones.create(project.id, {
      name: 'Design',
      dueDate: day(3),
    });
    await client.projects.milestones.list(project.id);
    await client.projects.milestones.retrieve(milestone.id);
    await client.projects.milestones.update(milestone.id, { name: 'Design done' });
    await client.projects.milestones.delete(milestone.id);

    const risk = await client.risks.create({
      title: 'Flood',
      projectId: project.id,
      likelihood: 2,
      impact: 3,
    });
    await client.risks.list({ projectId: project.id });
    await client.risks.retrieve(risk.id);
    await client.risks.update(risk.id, { impact: 4 });
    const issue = await client.issues.create({ title: 'Permit', projectId: project.id });
    await client.issues.list();
    await client.issues.retrieve(issue.id);
    await client.issues.update(issue.id, { priority: 'HIGH' });

    const resource = await client.resources.create({ name: 'Ana' });
    await client.resources.list();
    await client.resources.retrieve(resource.id);
    await client.resources.update(resource.id, { role: 'Engineer' });
    await client.resources.availability.retrieve(resource.id, { from: day(1), to: day(2) });
    const allocation = await client.allocations.create({
      resourceId: resource.id,
      projectId: project.id,
      startDate: day(1),
      endDate: day(2),
      allocationPercent: 50,
    });
    await client.allocations.list();
    await client.allocations.retrieve(allocation.id);
    await client.allocations.update(allocation.id, { allocationPercent: 60 });
    await client.allocations.conflicts.list({ from: day(1), to: day(2) });
    await client.allocations.delete(allocation.id);

    await client.agents.list();
    const run = await client.agents.run({ agentId: 'portfolio-health' });
    await client.agents.executions.list();
    await client.agents.executions.retrieve(run.executionId);
    await client.agents.ask({ question: 'What are the risks?' });

    const { port } = receiver.address() as AddressInfo;
    const hook = await client.webhooks.create({ url: `http://127.0.0.1:${port}/hook`, events: ['*'] });
    await client.webhooks.list();
    await client.webhooks.retrieve(hook.id);
    await client.webhooks.update(hook.id, { events: ['risk.created'] });
    await client.webhooks.rotateSecret(hook.id);
    await client.webhooks.revealSecret(hook.id);
    const delivery = await client.webhooks.test(hook.id);
    await client.webhooks.deliveries.list(hook.id);
    const resent = await client.webhooks.deliveries.resend(hook.id, delivery.id);
    expect(resent).to.include({ id: delivery.id, status: 'PENDING' });
    await client.webhooks.delete(hook.id);

    const key = await client.apiKeys.create({ name: 'Tree walk', scopes: ['read'] });
    await client.apiKeys.list();
    const successor = await client.apiKeys.roll(key.id, { gracePeriod: 'now' });
    expect(successor).to.include({ name: 'Tree walk' });
    expect(successor.key).to.match(/^mk_live_/);
    await client.apiKeys.delete(successor.id);
    await client.apiKeys.delete(key.id);
    await client.auditLogs.list({ limit: 5 });

    // Members, invitations and single sign-on, by calls that leave the tenant's one owner as it is.
    expect((await client.members.list()).data.map((m) => m.id)).to.include(tenant.userId);
    await client.members.retrieve(tenant.userId);
    expect(await client.members.update(tenant.userId, { role: 'owner' })).to.include({ role: 'owner' });
    await rejection(client.members.delete('0194f2a0-2d4f-7b21-8c3e-4f5a6b7c8d02'), NotFoundError);
    const invitation = await client.invitations.create({ email: 'tree-walk@example.com', role: 'viewer' });
    await client.invitations.list();
    await client.invitations.delete(invitation.id);
    await rejection(client.tenant.sso.retrieve(), NotFoundError);
    await rejection(
      client.tenant.sso.update({
        issuerUrl: 'https://login.example.com',
        clientId: 'meridian',
        clientSecret: 'secret',
        allowedDomains: ['example.com'],
        defaultRole: 'member',
      }),
      PermissionDeniedError,
    );
    await client.tenant.sso.delete();

    const missing = Object.keys(operationTable).filter((id) => !reached.has(id as OperationId));
    expect(missing, 'operations no resource method reached').to.deep.equal([]);
  });
});
