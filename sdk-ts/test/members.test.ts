/**
 * Members, invitations and the tenant's single sign-on settings through the SDK against the real server
 * (test/support/server.ts): `client.members`, `client.invitations`, `client.tenant.sso`, with their errors.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer, type TestTenant } from '../../test/support/server.js';
import { ConflictError, Meridian, NotFoundError, PermissionDeniedError } from '../src/index.js';
import { rejection } from './helpers.js';

describe('sdk-ts members and invitations', () => {
  let server: TestServer;
  let tenant: TestTenant;
  let admin: Meridian;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());
  beforeEach(async () => {
    tenant = await server.createTenant();
    admin = new Meridian({ apiKey: tenant.keys.admin, baseUrl: server.baseUrl, maxRetries: 0 });
  });

  it('lists and retrieves members; the last owner cannot be demoted (ConflictError)', async () => {
    const members = [];
    for await (const member of admin.members.list()) members.push(member);
    expect(members.map((m) => [m.id, m.role])).to.deep.equal([[tenant.userId, 'owner']]);
    const owner = await admin.members.retrieve(tenant.userId);
    expect(owner.role).to.equal('owner');
    const error = await rejection(admin.members.update(tenant.userId, { role: 'viewer' }), ConflictError);
    expect(error.code).to.equal('conflict');
    await rejection(admin.members.retrieve('0194f2a0-2d4f-7b21-8c3e-4f5a6b7c8d02'), NotFoundError);
  });

  it('invites (the link once), lists pending invitations and revokes one', async () => {
    const invitation = await admin.invitations.create({ email: 'grace@example.com', role: 'member' });
    expect(invitation.url).to.match(/\/console\/invitations\/accept#token=mi_/);
    expect(invitation.emailSent).to.equal(false);
    const pending = await admin.invitations.list();
    expect(pending.data.map((i) => i.id)).to.deep.equal([invitation.id]);
    expect(pending.data[0]).to.not.have.property('url');
    await admin.invitations.delete(invitation.id);
    expect((await admin.invitations.list()).data).to.deep.equal([]);
    const writer = new Meridian({ apiKey: tenant.keys.write, baseUrl: server.baseUrl, maxRetries: 0 });
    await rejection(
      writer.invitations.create({ email: 'x@example.com', role: 'viewer' }),
      PermissionDeniedError,
    );
  });

  it('reads the single sign-on settings: NotFoundError until configured', async () => {
    await rejection(admin.tenant.sso.retrieve(), NotFoundError);
    const refused = await rejection(
      admin.tenant.sso.update({
        issuerUrl: 'https://login.example.com',
        clientId: 'meridian',
        clientSecret: 'secret',
        allowedDomains: ['example.com'],
        defaultRole: 'member',
      }),
      PermissionDeniedError,
    );
    expect(refused.message).to.match(/Enterprise/);
  });
});
