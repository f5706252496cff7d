/**
 * Contract tests of the Members tag (docs/members.md, "Members and roles"): listing, role changes within the
 * caller's role, the last owner kept, and a removal that revokes the member's keys at once in this process, ends
 * their sessions and is audited.
 */
import { expect } from 'chai';
import { systemActor } from '../../server/services/context.js';
import { expectProblem } from '../support/assertions.js';
import { ConsoleBrowser, createAccount, newPassword } from '../support/console.js';
import { addMember } from '../support/members.js';
import { contractSuite } from '../support/suite.js';

describe('Members', () => {
  const ctx = contractSuite();

  it("lists the tenant's members with their roles, and one member by id", async () => {
    const viewer = await addMember(ctx.server, ctx.tenant.tenantId, 'viewer');
    const list = await ctx.admin.get('listMembers', '/members');
    expect(list.status).to.equal(200);
    expect(list.body.pagination.total).to.equal(2);
    const roles = Object.fromEntries(list.body.data.map((m: { id: string; role: string }) => [m.id, m.role]));
    expect(roles).to.deep.equal({ [ctx.tenant.userId]: 'owner', [viewer.userId]: 'viewer' });
    const one = await ctx.admin.get('getMember', `/members/${viewer.userId}`);
    expect(one.body).to.include({
      id: viewer.userId,
      email: viewer.email,
      role: 'viewer',
      lastSignedInAt: null,
    });
    // Other tenants' members are not found; a key without admin scope may not look.
    const other = await ctx.server.createTenant();
    expectProblem(await ctx.admin.get('getMember', `/members/${other.userId}`), 404, 'not_found');
    expectProblem(await ctx.api.get('listMembers', '/members'), 403, 'forbidden');
  });

  it('shows when a member last signed in to the console (null before the first sign-in)', async () => {
    const browser = new ConsoleBrowser(new URL(ctx.server.baseUrl).origin);
    const account = await createAccount(ctx.server.meridian, browser, ctx.tenant.tenantId, 'member');
    const first = await ctx.admin.get('getMember', `/members/${account.userId}`);
    const setupAt = first.body.lastSignedInAt as string;
    expect(Date.parse(setupAt)).to.be.closeTo(Date.now(), 60_000);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await browser.signIn(account.email, account.password)).status).to.equal(200);
    const list = await ctx.admin.get('listMembers', '/members');
    const listed = list.body.data.find((m: { id: string }) => m.id === account.userId);
    expect(Date.parse(listed.lastSignedInAt)).to.be.greaterThan(Date.parse(setupAt));
  });

  it("changes a role (audited), and the member's key follows the new role at once", async () => {
    const member = await addMember(ctx.server, ctx.tenant.tenantId, 'member');
    const memberApi = ctx.as(member.key);
    expect((await memberApi.post('createProject', '/projects', { body: projectBody() })).status).to.equal(
      201,
    );
    const changed = await ctx.admin.patch('updateMember', `/members/${member.userId}`, {
      body: { role: 'viewer' },
    });
    expect(changed.status).to.equal(200);
    expect(changed.body).to.include({ id: member.userId, role: 'viewer' });
    // The key was authenticated a moment ago (and held by this process): it is read again and now reads only.
    expectProblem(
      await memberApi.post('createProject', '/projects', { body: projectBody() }),
      403,
      'forbidden',
    );
    expect((await memberApi.get('listProjects', '/projects')).status).to.equal(200);
    const audit = await ctx.admin.get('listAuditLogs', '/audit-logs', {
      query: { action: 'member.role_changed' },
    });
    expect(audit.body.data).to.have.length(1);
    expect(audit.body.data[0]).to.deep.include({ resourceType: 'member', resourceId: member.userId });
    expect(audit.body.data[0].changes).to.deep.equal({ role: { from: 'member', to: 'viewer' } });
  });

  it('lets an admin manage members below owner only', async () => {
    const admin = await addMember(ctx.server, ctx.tenant.tenantId, 'admin');
    const member = await addMember(ctx.server, ctx.tenant.tenantId, 'member');
    const adminApi = ctx.as(admin.key);
    const promoted = await adminApi.patch('updateMember', `/members/${member.userId}`, {
      body: { role: 'admin' },
    });
    expect(promoted.body.role).to.equal('admin');
    const toOwner = await adminApi.patch('updateMember', `/members/${member.userId}`, {
      body: { role: 'owner' },
    });
    expect(expectProblem(toOwner, 403, 'forbidden').detail).to.match(
      /only an owner can make someone an owner/i,
    );
    const demoteOwner = await adminApi.patch('updateMember', `/members/${ctx.tenant.userId}`, {
      body: { role: 'member' },
    });
    expectProblem(demoteOwner, 403, 'forbidden');
    expectProblem(await adminApi.delete('removeMember', `/members/${ctx.tenant.userId}`), 403, 'forbidden');
    expect((await adminApi.delete('removeMember', `/members/${member.userId}`)).status).to.equal(204);
  });

  it('keeps the last owner: neither demoted nor removed (409), until another owner exists', async () => {
    const owner = ctx.tenant.userId;
    const admin = await addMember(ctx.server, ctx.tenant.tenantId, 'admin');
    const demote = await ctx.admin.patch('updateMember', `/members/${owner}`, { body: { role: 'admin' } });
    expect(expectProblem(demote, 409, 'conflict').detail).to.match(/last owner/);
    expect(
      expectProblem(await ctx.as(admin.key).delete('removeMember', `/members/${owner}`), 403, 'forbidden'),
    );
    const second = await addMember(ctx.server, ctx.tenant.tenantId, 'owner');
    const removeFirst = await ctx.as(second.key).delete('removeMember', `/members/${owner}`);
    expect(removeFirst.status).to.equal(204);
    const removeLast = await ctx.as(second.key).patch('updateMember', `/members/${second.userId}`, {
      body: { role: 'viewer' },
    });
    expectProblem(removeLast, 409, 'conflict');
  });

  it('removes a member: keys and console token refused at once in this process, session ended, audited', async () => {
    const browser = new ConsoleBrowser(new URL(ctx.server.baseUrl).origin);
    const account = await createAccount(ctx.server.meridian, browser, ctx.tenant.tenantId, 'member');
    const { key } = await ctx.server.meridian.services.apiKeys.create(systemActor(ctx.tenant.tenantId), {
      name: 'member key',
      scopes: ['read', 'write'],
      userId: account.userId,
    });
    const token = await browser.token();
    // Both authenticated once, so this process holds them in its principal cache.
    expect((await ctx.as(key).get('listProjects', '/projects')).status).to.equal(200);
    expect((await ctx.as(token).get('listProjects', '/projects')).status).to.equal(200);
    const removed = await ctx.admin.delete('removeMember', `/members/${account.userId}`);
    expect(removed.status).to.equal(204);
    expectProblem(await ctx.as(key).get('listProjects', '/projects'), 401, 'unauthenticated');
    expectProblem(await ctx.as(token).get('listProjects', '/projects'), 401, 'unauthenticated');
    expect((await browser.call('GET', '/auth/session')).status).to.equal(401);
    const signIn = await new ConsoleBrowser(browser.origin).signIn(account.email, account.password);
    expect(signIn.status).to.equal(401);
    const { knex } = ctx.server.db;
    const user = await knex('users').where({ id: account.userId }).first();
    // The account keeps its email (so no way back in by itself), without its password.
    expect(user).to.include({ email_normalized: account.email, password_hash: null });
    expect(user.deactivated_at).to.be.a('string');
    expectProblem(await ctx.admin.get('getMember', `/members/${account.userId}`), 404, 'not_found');
    expect((await ctx.admin.get('listMembers', '/members')).body.pagination.total).to.equal(1);
    const audit = await ctx.admin.get('listAuditLogs', '/audit-logs', {
      query: { action: 'member.removed' },
    });
    expect(audit.body.data[0].changes).to.deep.equal({
      role: { from: 'member', to: null },
      apiKeysRevoked: { from: null, to: 1 },
      sessionsEnded: { from: null, to: 1 },
    });
    // The address can be invited again: accepting brings the same account back, with the new role only.
    const again = await ctx.admin.post('createInvitation', '/invitations', {
      body: { email: account.email, role: 'viewer' },
    });
    expect(again.status).to.equal(201);
    const back = await new ConsoleBrowser(browser.origin).call('POST', '/auth/invitations/accept', {
      body: {
        token: new URL(again.body.url).hash.slice('#token='.length),
        name: 'Back again',
        password: newPassword(),
      },
    });
    expect(back.status, JSON.stringify(back.body)).to.equal(200);
    expect(back.body.user).to.include({ id: account.userId, role: 'viewer', name: 'Back again' });
    expectProblem(await ctx.as(key).get('listProjects', '/projects'), 401, 'unauthenticated');
    // Nobody removes themselves with their own key (here also the last owner).
    expectProblem(await ctx.admin.delete('removeMember', `/members/${ctx.tenant.userId}`), 409, 'conflict');
  });
});

function projectBody() {
  return { name: 'Members test', startDate: '2026-01-01', endDate: '2026-12-31' };
}
