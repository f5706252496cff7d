/**
 * Contract tests of the Invitations tag (docs/members.md, "Invitations"): a one-time link shown once and stored as
 * a hash, mailed through a real SMTP server started here when MERIDIAN_SMTP_URL is set, listed while pending,
 * revocable, and accepted once with `POST /auth/invitations/accept`, which creates the account and signs it in.
 */
import { expect } from 'chai';
import { expectProblem } from '../support/assertions.js';
import { ConsoleBrowser, newPassword } from '../support/console.js';
import { addMember } from '../support/members.js';
import { SmtpSink } from '../support/smtp.js';
import { contractSuite } from '../support/suite.js';

/** The token in an invitation link's fragment. */
function tokenOf(url: string): string {
  const token = new URL(url).hash.replace(/^#token=/, '');
  expect(token).to.match(/^mi_[A-Za-z0-9_-]{43}$/);
  return token;
}

describe('Invitations', () => {
  const smtp: { sink?: SmtpSink } = {};
  before(async () => {
    smtp.sink = await SmtpSink.start();
  });
  after(async () => smtp.sink?.close());
  const ctx = contractSuite({
    env: {
      get MERIDIAN_SMTP_URL() {
        return smtp.sink?.url;
      },
      MERIDIAN_MAIL_FROM: 'Meridian <meridian@example.com>',
    },
  });
  const sink = () => smtp.sink as SmtpSink;

  it('invites by email: the link is shown once, stored as a hash, mailed, and the message carries it', async () => {
    const before = sink().received.length;
    const created = await ctx.admin.post('createInvitation', '/invitations', {
      body: { email: 'Grace@Example.com', role: 'member' },
    });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({
      email: 'Grace@Example.com',
      role: 'member',
      invitedBy: ctx.tenant.userId,
    });
    expect(created.body.emailSent).to.equal(true);
    expect(created.headers.get('cache-control')).to.equal('no-store');
    const token = tokenOf(created.body.url);
    expect(Date.parse(created.body.expiresAt) - Date.parse(created.body.createdAt)).to.equal(
      7 * 24 * 3_600_000,
    );
    const [mail] = (await sink().waitFor(before + 1)).slice(before);
    expect(mail?.to.map((a) => a.toLowerCase())).to.deep.equal(['grace@example.com']);
    expect(mail?.parsed.from?.text).to.include('meridian@example.com');
    expect(mail?.parsed.subject).to.match(/invited to .* on Meridian/);
    const link = /https?:\/\/\S+#token=\S+/.exec(mail?.parsed.text ?? '')?.[0];
    expect(link).to.equal(created.body.url);
    // Only the hash is stored.
    const row = await ctx.server.db.knex('invitations').where({ id: created.body.id }).first();
    expect(JSON.stringify(row)).not.to.include(token);
    // Pending, then listed without the link; audited without it too.
    const list = await ctx.admin.get('listInvitations', '/invitations');
    expect(list.body.data.map((i: { id: string }) => i.id)).to.deep.equal([created.body.id]);
    expect(JSON.stringify(list.body)).not.to.include(token);
    const audit = await ctx.admin.get('listAuditLogs', '/audit-logs', {
      query: { action: 'member.invited' },
    });
    expect(audit.body.data[0]).to.deep.include({ resourceType: 'invitation', resourceId: created.body.id });
    expect(JSON.stringify(audit.body)).not.to.include(token);
  });

  it('accepts the link read from the message: account created and signed in, the link works once', async () => {
    const before = sink().received.length;
    await ctx.admin.post('createInvitation', '/invitations', {
      body: { email: 'ada@example.com', role: 'viewer' },
    });
    const [mail] = (await sink().waitFor(before + 1)).slice(before);
    const link = /https?:\/\/\S+#token=\S+/.exec(mail?.parsed.text ?? '')?.[0] as string;
    const accept = acceptor(ctx.server.baseUrl);
    const res = await accept({ token: tokenOf(link), name: 'Ada Lovelace', password: newPassword() });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.status).to.equal('signed_in');
    expect(res.body.user).to.include({ name: 'Ada Lovelace', email: 'ada@example.com', role: 'viewer' });
    expect(res.setCookie).to.match(/^__Host-meridian_session=[^;]+;.*HttpOnly/i);
    // Signed in: the console gets its token, and it reads (a viewer's token) but cannot write.
    const token = await res.browser.token();
    expect((await ctx.as(token).get('listProjects', '/projects')).status).to.equal(200);
    expectProblem(
      await ctx.as(token).post('createProject', '/projects', {
        body: { name: 'No', startDate: '2026-01-01', endDate: '2026-02-01' },
      }),
      403,
      'forbidden',
    );
    const members = await ctx.admin.get('listMembers', '/members');
    const joined = members.body.data.find((m: { email: string }) => m.email === 'ada@example.com');
    expect(joined).to.include({ name: 'Ada Lovelace', role: 'viewer' });
    expect((await ctx.admin.get('listInvitations', '/invitations')).body.data).to.deep.equal([]);
    const again = await accept({ token: tokenOf(link), name: 'Eve', password: newPassword() });
    expect(again.status).to.equal(401);
    expect(again.body.code).to.equal('unauthenticated');
  });

  it('previews an open invitation (tenant, email, role, expiry) and gives used or revoked links one answer', async () => {
    const created = await ctx.admin.post('createInvitation', '/invitations', {
      body: { email: 'mary@example.com', role: 'member' },
    });
    const token = tokenOf(created.body.url);
    const tenant = await ctx.admin.get('getTenant', '/tenant');
    const preview = await previewer(ctx.server.baseUrl)(token);
    expect(preview.status).to.equal(200);
    expect(preview.body).to.deep.equal({
      tenantName: tenant.body.name,
      email: 'mary@example.com',
      role: 'member',
      expiresAt: created.body.expiresAt,
    });
    expect(JSON.stringify(preview.body)).not.to.include(token);
    // Looking changes nothing: the link still works, once.
    expect(
      (await acceptor(ctx.server.baseUrl)({ token, name: 'Mary', password: newPassword() })).status,
    ).to.equal(200);
    const used = await previewer(ctx.server.baseUrl)(token);
    expect(used.status).to.equal(401);
    expect(used.body.code).to.equal('unauthenticated');
    const revoked = await ctx.admin.post('createInvitation', '/invitations', {
      body: { email: 'alan@example.com', role: 'viewer' },
    });
    await ctx.admin.delete('revokeInvitation', `/invitations/${revoked.body.id}`);
    const revokedPreview = await previewer(ctx.server.baseUrl)(tokenOf(revoked.body.url));
    expect(revokedPreview.status).to.equal(401);
    expect(revokedPreview.body.detail).to.equal(used.body.detail);
    expect((await previewer(ctx.server.baseUrl)('mi_unknown')).status).to.equal(401);
    // Expired: the same answer.
    const expiring = await ctx.admin.post('createInvitation', '/invitations', {
      body: { email: 'edsger@example.com', role: 'member' },
    });
    await ctx.server.db
      .knex('invitations')
      .where({ id: expiring.body.id })
      .update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    const expired = await previewer(ctx.server.baseUrl)(tokenOf(expiring.body.url));
    expect(expired.status).to.equal(401);
    expect(expired.body.detail).to.equal(used.body.detail);
  });

  it('revokes a pending invitation (audited): its link stops working; an accepted one cannot be revoked', async () => {
    const created = await ctx.admin.post('createInvitation', '/invitations', {
      body: { email: 'linus@example.com', role: 'member' },
    });
    expect((await ctx.admin.delete('revokeInvitation', `/invitations/${created.body.id}`)).status).to.equal(
      204,
    );
    expect((await ctx.admin.delete('revokeInvitation', `/invitations/${created.body.id}`)).status).to.equal(
      204,
    );
    const audit = await ctx.admin.get('listAuditLogs', '/audit-logs', {
      query: { action: 'invitation.revoked' },
    });
    expect(audit.body.data).to.have.length(1);
    const accept = acceptor(ctx.server.baseUrl);
    const res = await accept({ token: tokenOf(created.body.url), name: 'L', password: newPassword() });
    expect(res.status).to.equal(401);
    // A new invitation for the same address is possible once the first is revoked.
    const again = await ctx.admin.post('createInvitation', '/invitations', {
      body: { email: 'linus@example.com', role: 'member' },
    });
    expect(again.status).to.equal(201);
    const duplicate = await ctx.admin.post('createInvitation', '/invitations', {
      body: { email: 'LINUS@example.com', role: 'viewer' },
    });
    expectProblem(duplicate, 409, 'conflict');
    await accept({ token: tokenOf(again.body.url), name: 'Linus', password: newPassword() });
    expectProblem(
      await ctx.admin.delete('revokeInvitation', `/invitations/${again.body.id}`),
      409,
      'conflict',
    );
  });

  it("refuses an invitation for an existing account, and a role above the inviter's", async () => {
    const member = await addMember(ctx.server, ctx.tenant.tenantId, 'admin');
    const existing = await ctx.admin.post('createInvitation', '/invitations', {
      body: { email: member.email.toUpperCase(), role: 'member' },
    });
    expectProblem(existing, 409, 'conflict');
    const asAdmin = await ctx.as(member.key).post('createInvitation', '/invitations', {
      body: { email: 'new-owner@example.com', role: 'owner' },
    });
    expectProblem(asAdmin, 403, 'forbidden');
    const tooShort = await acceptor(ctx.server.baseUrl)({ token: 'mi_x', name: 'X', password: 'short' });
    expect(tooShort.status).to.equal(422);
  });
});

/** `POST /auth/invitations/accept` as the console sends it (a fresh browser, same origin, JSON). */
function acceptor(baseUrl: string) {
  return async (body: { token: string; name: string; password: string }) => {
    const browser = new ConsoleBrowser(new URL(baseUrl).origin);
    const res = await browser.call('POST', '/auth/invitations/accept', { body });
    return { status: res.status, body: res.body, setCookie: browser.lastSetCookie ?? '', browser };
  };
}

/** `POST /auth/invitations/preview` as the console sends it. */
function previewer(baseUrl: string) {
  return async (token: string) => {
    const browser = new ConsoleBrowser(new URL(baseUrl).origin);
    return browser.call('POST', '/auth/invitations/preview', { body: { token } });
  };
}

describe('Invitations when the SMTP server cannot be reached', () => {
  // A port nothing listens on: the mail fails, the invitation and its link do not.
  const ctx = contractSuite({ env: { MERIDIAN_SMTP_URL: 'smtp://127.0.0.1:9' } });

  it('still creates the invitation and returns its link, with emailSent false', async () => {
    const created = await ctx.admin.post('createInvitation', '/invitations', {
      body: { email: 'offline@example.com', role: 'viewer' },
    });
    expect(created.status).to.equal(201);
    expect(created.body.emailSent).to.equal(false);
    tokenOf(created.body.url);
    const list = await ctx.admin.get('listInvitations', '/invitations');
    expect(list.body.data.map((i: { id: string }) => i.id)).to.deep.equal([created.body.id]);
  });
});
