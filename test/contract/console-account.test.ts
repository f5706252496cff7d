/**
 * A signed-in user's own account (docs/accounts.md, "Accounts" and "Two-factor sign-in"): changing the display name,
 * regenerating the recovery codes (password or current code) and turning two-factor sign-in off (password; refused
 * while the tenant requires it). Codes are computed for the injected clock's time.
 */
import { expect } from 'chai';
import { generate } from 'otplib';
import { ManualClock } from '../../server/clock.js';
import { expectProblem } from '../support/assertions.js';
import { client } from '../support/client.js';
import { ConsoleBrowser, createAccount } from '../support/console.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('Console sign-in: the account page', () => {
  const clock = new ManualClock(new Date());
  let server: TestServer;
  let origin: string;
  before(async () => {
    server = await startTestServer({ clock });
    origin = new URL(server.baseUrl).origin;
  });
  after(async () => server.close());

  /** The code an authenticator app shows now (the injected clock's now). */
  const codeFor = (secret: string) => generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });

  /** A signed-in admin with two-factor sign-in on: its secret and recovery codes. */
  async function enrolled(tenantId: string) {
    const browser = new ConsoleBrowser(origin);
    const account = await createAccount(server.meridian, browser, tenantId, 'admin');
    const begin = await browser.call('POST', '/auth/two-factor/enrolment');
    const secret = begin.body.secret as string;
    const confirm = await browser.call('POST', '/auth/two-factor/enrolment/confirm', {
      body: { code: await codeFor(secret) },
    });
    expect(confirm.status).to.equal(200);
    clock.advance(30_000);
    return { ...account, browser, secret, recoveryCodes: confirm.body.recoveryCodes as string[] };
  }

  /** The audit actions written about a user, newest first. */
  async function auditOf(adminKey: string, userId: string) {
    const audit = await client(server.baseUrl, adminKey).get('listAuditLogs', '/audit-logs', {
      query: { resourceId: userId },
    });
    expect(audit.status).to.equal(200);
    return audit.body.data as { action: string; changes: Record<string, { from: unknown; to: unknown }> }[];
  }

  it('changes the display name (trimmed), audited with before and after', async () => {
    const t = await server.createTenant();
    const browser = new ConsoleBrowser(origin);
    const { userId } = await createAccount(server.meridian, browser, t.tenantId, 'viewer');
    const before = (await browser.call('GET', '/auth/session')).body.user.name as string;
    const res = await browser.call('PATCH', '/auth/account', { body: { name: '  Ama Okafor  ' } });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ id: userId, name: 'Ama Okafor', role: 'viewer', twoFactorEnabled: false });
    expect((await browser.call('GET', '/auth/session')).body.user.name).to.equal('Ama Okafor');
    const row = (await auditOf(t.keys.admin, userId)).find((e) => e.action === 'user.updated');
    expect(row?.changes).to.deep.equal({ name: { from: before, to: 'Ama Okafor' } });

    expectProblem(
      await browser.call('PATCH', '/auth/account', { body: { name: '   ' } }),
      400,
      'validation_failed',
    );
    expectProblem(
      await browser.call('PATCH', '/auth/account', { body: { name: 'x'.repeat(201) } }),
      400,
      'validation_failed',
    );
    expectProblem(
      await browser.call('PATCH', '/auth/account', { body: { name: 'A', role: 'owner' } }),
      400,
      'validation_failed',
    );
    expectProblem(
      await browser.call('PATCH', '/auth/account', {
        body: { name: 'Evil' },
        origin: 'https://evil.example',
      }),
      403,
      'forbidden',
    );
    expectProblem(
      await new ConsoleBrowser(origin).call('PATCH', '/auth/account', { body: { name: 'Nobody' } }),
      401,
      'unauthenticated',
    );
  });

  it('regenerates the recovery codes with the password or a current code; the old ones stop working', async () => {
    const t = await server.createTenant();
    const { browser, email, password, secret, recoveryCodes, userId } = await enrolled(t.tenantId);
    // Use one code, so that the count before is 9.
    const other = new ConsoleBrowser(origin);
    await other.signIn(email, password);
    const used = await other.call('POST', '/auth/sign-in/two-factor', {
      body: { recoveryCode: recoveryCodes[0] },
    });
    expect(used.status).to.equal(200);

    expectProblem(
      await browser.call('POST', '/auth/two-factor/recovery-codes', {
        body: { password: 'not the password at all' },
      }),
      422,
      'validation_failed',
    );
    expectProblem(
      await browser.call('POST', '/auth/two-factor/recovery-codes', { body: { password, code: '123456' } }),
      400,
      'validation_failed',
    );
    const fresh = await browser.call('POST', '/auth/two-factor/recovery-codes', { body: { password } });
    expect(fresh.status).to.equal(200);
    expect(fresh.body.recoveryCodes).to.have.length(10);
    expect(fresh.body.recoveryCodes).not.to.include.members([recoveryCodes[1]]);
    expect((await browser.call('GET', '/auth/session')).body.session.recoveryCodesLeft).to.equal(10);
    const row = (await auditOf(t.keys.admin, userId)).find(
      (e) => e.action === 'auth.recovery_codes_regenerated',
    );
    expect(row?.changes).to.deep.equal({ recoveryCodesLeft: { from: 9, to: 10 } });
    expect(JSON.stringify(row)).not.to.contain(password);

    const late = new ConsoleBrowser(origin);
    await late.signIn(email, password);
    expectProblem(
      await late.call('POST', '/auth/sign-in/two-factor', { body: { recoveryCode: recoveryCodes[1] } }),
      401,
      'unauthenticated',
    );
    expect(
      (
        await late.call('POST', '/auth/sign-in/two-factor', {
          body: { recoveryCode: fresh.body.recoveryCodes[0] },
        })
      ).status,
    ).to.equal(200);

    const code = await codeFor(secret);
    const byCode = await browser.call('POST', '/auth/two-factor/recovery-codes', { body: { code } });
    expect(byCode.status).to.equal(200);
    // A code is accepted once.
    expectProblem(
      await browser.call('POST', '/auth/two-factor/recovery-codes', { body: { code } }),
      422,
      'validation_failed',
    );
  });

  it('turns two-factor sign-in off with the password; the next sign-in asks for the password only', async () => {
    const t = await server.createTenant();
    const { browser, email, password, userId } = await enrolled(t.tenantId);
    expectProblem(
      await browser.call('DELETE', '/auth/two-factor', { body: { password: 'not the password at all' } }),
      422,
      'validation_failed',
    );
    expectProblem(
      await browser.call('DELETE', '/auth/two-factor', { headers: { 'content-type': 'application/json' } }),
      400,
      'validation_failed',
    );
    const off = await browser.call('DELETE', '/auth/two-factor', { body: { password } });
    expect(off.status).to.equal(204);
    const state = await browser.call('GET', '/auth/session');
    expect(state.status).to.equal(200);
    expect(state.body.user.twoFactorEnabled).to.equal(false);
    expect(state.body.session.recoveryCodesLeft).to.equal(0);
    const again = new ConsoleBrowser(origin);
    expect((await again.signIn(email, password)).body.status).to.equal('signed_in');
    expectProblem(await browser.call('DELETE', '/auth/two-factor', { body: { password } }), 409, 'conflict');
    expectProblem(
      await browser.call('POST', '/auth/two-factor/recovery-codes', { body: { password } }),
      409,
      'conflict',
    );
    const row = (await auditOf(t.keys.admin, userId)).find((e) => e.action === 'auth.two_factor_disabled');
    expect(row?.changes).to.deep.equal({ twoFactor: { from: true, to: false } });
    // Enrolling again works.
    expect((await browser.call('POST', '/auth/two-factor/enrolment')).status).to.equal(200);
  });

  it('refuses to turn it off while the tenant requires it, or while the password is too short alone', async () => {
    const t = await server.createTenant();
    const { browser, password } = await enrolled(t.tenantId);
    const owner = client(server.baseUrl, t.keys.admin);
    const on = await owner.patch('updateTenant', '/tenant', {
      body: { settings: { requireTwoFactor: true } },
    });
    expect(on.status).to.equal(200);
    const refused = expectProblem(
      await browser.call('DELETE', '/auth/two-factor', { body: { password } }),
      409,
      'conflict',
    );
    expect(refused.detail).to.contain('requireTwoFactor');
    await owner.patch('updateTenant', '/tenant', { body: { settings: { requireTwoFactor: false } } });

    // With a second factor, 8 characters suffice; alone, they do not (docs/accounts.md, "Passwords").
    const short = 'tangelo9';
    const change = await browser.call('POST', '/auth/password', {
      body: { currentPassword: password, newPassword: short },
    });
    expect(change.status).to.equal(204);
    const weak = expectProblem(
      await browser.call('DELETE', '/auth/two-factor', { body: { password: short } }),
      422,
      'validation_failed',
    );
    expect(weak.detail).to.contain('15 characters');
    expect((await browser.call('GET', '/auth/session')).body.user.twoFactorEnabled).to.equal(true);
  });

  it('counts wrong passwords given to confirm like failed sign-ins', async () => {
    const t = await server.createTenant();
    const { browser, password } = await enrolled(t.tenantId);
    let refused: Awaited<ReturnType<typeof browser.call>> | null = null;
    for (let attempt = 0; attempt < 8 && !refused; attempt++) {
      const res = await browser.call('DELETE', '/auth/two-factor', {
        body: { password: `wrong guess ${attempt}` },
      });
      if (res.status === 429) refused = res;
      else expectProblem(res, 422, 'validation_failed');
    }
    expect(refused, 'a delay starts after three free failures').not.to.equal(null);
    expectProblem(refused as NonNullable<typeof refused>, 429, 'rate_limited');
    expect(Number(refused?.headers.get('retry-after'))).to.be.greaterThan(0);
    // While the delay runs, the right password is refused too, and nothing changed.
    expectProblem(
      await browser.call('DELETE', '/auth/two-factor', { body: { password } }),
      429,
      'rate_limited',
    );
    expect((await browser.call('GET', '/auth/session')).body.user.twoFactorEnabled).to.equal(true);
  });
});
