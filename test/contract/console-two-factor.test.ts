/**
 * Two-factor sign-in (docs/accounts.md, "Two-factor sign-in"): TOTP enrolment with a QR code confirmed by a first
 * code, sign-in with a code and with a recovery code (each once), and a tenant's `requireTwoFactor` holding back the
 * sign-in of users without a second factor. Codes are computed for the injected clock's time.
 */
import { expect } from 'chai';
import { generate } from 'otplib';
import { ManualClock } from '../../server/clock.js';
import { expectProblem } from '../support/assertions.js';
import { client } from '../support/client.js';
import { ConsoleBrowser, createAccount } from '../support/console.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('Console sign-in: two-factor', () => {
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

  /** A signed-in account with two-factor sign-in on: its secret and recovery codes. */
  async function enrolled(tenantId: string) {
    const browser = new ConsoleBrowser(origin);
    const account = await createAccount(server.meridian, browser, tenantId, 'admin');
    const begin = await browser.call('POST', '/auth/two-factor/enrolment');
    expect(begin.status).to.equal(200);
    const secret = begin.body.secret as string;
    const confirm = await browser.call('POST', '/auth/two-factor/enrolment/confirm', {
      body: { code: await codeFor(secret) },
    });
    expect(confirm.status).to.equal(200);
    clock.advance(30_000);
    return { ...account, browser, secret, recoveryCodes: confirm.body.recoveryCodes as string[] };
  }

  it('enrols with a QR code and a first code, and shows ten recovery codes once', async () => {
    const t = await server.createTenant();
    const browser = new ConsoleBrowser(origin);
    await createAccount(server.meridian, browser, t.tenantId, 'member');
    const begin = await browser.call('POST', '/auth/two-factor/enrolment');
    expect(begin.status).to.equal(200);
    expect(begin.body.secret).to.match(/^[A-Z2-7]{32}$/);
    expect(begin.body.otpauthUri).to.match(/^otpauth:\/\/totp\/Meridian:.*secret=[A-Z2-7]+.*issuer=Meridian/);
    expect(begin.body.qrCode).to.match(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(begin.body.qrCode.split(',')[1], 'base64').toString()).to.contain('<svg');
    const wrong = await browser.call('POST', '/auth/two-factor/enrolment/confirm', {
      body: { code: '000000' },
    });
    expectProblem(wrong, 422, 'validation_failed');
    const confirm = await browser.call('POST', '/auth/two-factor/enrolment/confirm', {
      body: { code: await codeFor(begin.body.secret) },
    });
    expect(confirm.status).to.equal(200);
    expect(confirm.body.recoveryCodes).to.have.length(10);
    expect(new Set(confirm.body.recoveryCodes).size).to.equal(10);
    expect(confirm.body.user.twoFactorEnabled).to.equal(true);
    const state = await browser.call('GET', '/auth/session');
    expect(state.body.session.recoveryCodesLeft).to.equal(10);
    expectProblem(await browser.call('POST', '/auth/two-factor/enrolment'), 409, 'conflict');
  });

  it('signs in with password then a code; the same code is refused the second time', async () => {
    const t = await server.createTenant();
    const { email, password, secret } = await enrolled(t.tenantId);
    const browser = new ConsoleBrowser(origin);
    const first = await browser.signIn(email, password);
    expect(first.status).to.equal(200);
    expect(first.body.status).to.equal('two_factor_required');
    const pending = browser.cookie;
    // A session awaiting its second factor opens nothing else.
    expectProblem(await browser.call('POST', '/auth/token'), 401, 'unauthenticated');
    const code = await codeFor(secret);
    const done = await browser.call('POST', '/auth/sign-in/two-factor', { body: { code } });
    expect(done.status).to.equal(200);
    expect(done.body.status).to.equal('signed_in');
    expect(browser.cookie).not.to.equal(pending);
    expect((await browser.call('POST', '/auth/token')).status).to.equal(200);

    const again = new ConsoleBrowser(origin);
    await again.signIn(email, password);
    expectProblem(
      await again.call('POST', '/auth/sign-in/two-factor', { body: { code } }),
      401,
      'unauthenticated',
    );
  });

  it('signs in with a recovery code, once each', async () => {
    const t = await server.createTenant();
    const { email, password, recoveryCodes } = await enrolled(t.tenantId);
    const code = recoveryCodes[3] as string;
    const browser = new ConsoleBrowser(origin);
    await browser.signIn(email, password);
    const done = await browser.call('POST', '/auth/sign-in/two-factor', {
      body: { recoveryCode: ` ${code.toUpperCase()} ` },
    });
    expect(done.status).to.equal(200);
    expect((await browser.call('GET', '/auth/session')).body.session.recoveryCodesLeft).to.equal(9);
    const again = new ConsoleBrowser(origin);
    await again.signIn(email, password);
    const reused = await again.call('POST', '/auth/sign-in/two-factor', { body: { recoveryCode: code } });
    expectProblem(reused, 401, 'unauthenticated');
  });

  it('requireTwoFactor (owner only) holds back a sign-in until the user enrols', async () => {
    const t = await server.createTenant();
    const admin = new ConsoleBrowser(origin);
    await createAccount(server.meridian, admin, t.tenantId, 'admin');
    const adminApi = client(server.baseUrl, await admin.token());
    const refused = await adminApi.patch('updateTenant', '/tenant', {
      body: { settings: { requireTwoFactor: true } },
    });
    expectProblem(refused, 403, 'forbidden');
    const owner = client(server.baseUrl, t.keys.admin);
    const on = await owner.patch('updateTenant', '/tenant', {
      body: { settings: { requireTwoFactor: true } },
    });
    expect(on.status).to.equal(200);
    expect(on.body.settings.requireTwoFactor).to.equal(true);

    const member = new ConsoleBrowser(origin);
    const { email, password } = await createAccount(server.meridian, member, t.tenantId, 'member');
    const browser = new ConsoleBrowser(origin);
    const signIn = await browser.signIn(email, password);
    expect(signIn.body.status).to.equal('two_factor_enrolment_required');
    expectProblem(await browser.call('POST', '/auth/token'), 401, 'unauthenticated');
    const begin = await browser.call('POST', '/auth/two-factor/enrolment');
    const pending = browser.cookie;
    const confirm = await browser.call('POST', '/auth/two-factor/enrolment/confirm', {
      body: { code: await codeFor(begin.body.secret) },
    });
    expect(confirm.status).to.equal(200);
    expect(confirm.body.status).to.equal('signed_in');
    expect(browser.cookie).not.to.equal(pending);
    expect((await browser.call('POST', '/auth/token')).status).to.equal(200);
  });
});
