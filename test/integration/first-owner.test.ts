/**
 * How the first owner signs in (docs/accounts.md, "First run"), as a person does it: `npm start` prints a one-time
 * setup link beside the admin key; the link sets email and password and signs in once; the CLI's `users create`,
 * `users reset` and `users setup-link` print links that work the same way. Child processes over a real SQLite file.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { ConsoleBrowser, newPassword } from '../support/console.js';
import { startApi, stopProcess } from '../support/processes.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const LINK = /(https?:\/\/\S+\/console\/(setup|reset-password)#token=([A-Za-z0-9_-]{43}))/;

describe('first owner sign-in', function () {
  this.timeout(120_000);
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-owner-'));
    env = {
      MERIDIAN_SQLITE_FILE: path.join(dir, 'm.sqlite'),
      DATABASE_URL: '',
      MERIDIAN_IMPORT_DEMO: 'false',
    };
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const cli = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, MERIDIAN_PUBLIC_URL: 'https://pm.example.com' },
    });

  it('npm start prints a setup link once; it signs the owner in once; the CLI prints working links', async () => {
    const first = await startApi({ ...env, MERIDIAN_PUBLIC_URL: 'https://pm.example.com' });
    let token: string;
    try {
      const printed = LINK.exec(first.output());
      expect(printed, first.output()).to.not.equal(null);
      expect(printed?.[1]).to.match(/^https:\/\/pm\.example\.com\/console\/setup#token=/);
      token = printed?.[3] as string;
    } finally {
      await stopProcess(first.child);
    }
    const second = await startApi(env);
    try {
      expect(second.output()).not.to.match(LINK);
      expect(second.output()).to.contain('npm run cli -- users setup-link');
      const origin = new URL(second.baseUrl).origin;
      const owner = new ConsoleBrowser(origin);
      const password = newPassword();
      const setup = await owner.call('POST', '/auth/setup', {
        body: { token, password, email: 'Lead@PMO.example', name: 'Demo PMO lead' },
      });
      expect(setup.status, JSON.stringify(setup.body)).to.equal(200);
      expect(setup.body).to.deep.include({ status: 'signed_in' });
      expect(setup.body.user).to.include({ email: 'Lead@PMO.example', role: 'owner' });
      const twice = await new ConsoleBrowser(origin).call('POST', '/auth/setup', {
        body: { token, password },
      });
      expect(twice.status).to.equal(401);
      const me = await fetch(`${second.baseUrl}/me`, {
        headers: { authorization: `Bearer ${await owner.token()}` },
      });
      expect(((await me.json()) as { user: { role: string } }).user.role).to.equal('owner');

      // users create: a viewer's setup link.
      const created = await cli(
        'users',
        'create',
        '--tenant',
        'NYC Capital Projects (demo)',
        '--email',
        'viewer@pmo.example',
        '--role',
        'viewer',
      );
      const viewerLink = LINK.exec(created.stdout);
      expect(viewerLink?.[2]).to.equal('setup');
      expect(JSON.parse(created.stdout.split('\n')[0] as string)).to.include({
        email: 'viewer@pmo.example',
        role: 'viewer',
        created: true,
      });
      const viewer = new ConsoleBrowser(origin);
      const viewerSetup = await viewer.call('POST', '/auth/setup', {
        body: { token: viewerLink?.[3], password: newPassword() },
      });
      expect(viewerSetup.body.user).to.include({ email: 'viewer@pmo.example', role: 'viewer' });

      // users reset: a new password; every session of the owner ends.
      const reset = LINK.exec((await cli('users', 'reset', '--email', 'lead@pmo.example')).stdout);
      expect(reset?.[2]).to.equal('reset-password');
      const newOne = newPassword();
      const redo = await new ConsoleBrowser(origin).call('POST', '/auth/setup', {
        body: { token: reset?.[3], password: newOne },
      });
      expect(redo.status).to.equal(200);
      expect((await owner.call('GET', '/auth/session')).status).to.equal(401);
      expect((await new ConsoleBrowser(origin).signIn('lead@pmo.example', password)).status).to.equal(401);
      expect((await new ConsoleBrowser(origin).signIn('lead@pmo.example', newOne)).status).to.equal(200);

      // setup-link refuses an owner who has a password.
      const refused = await cli('users', 'setup-link', '--tenant', 'NYC Capital Projects (demo)').catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect((refused as { code: number }).code).to.equal(1);
      expect((refused as { stderr: string }).stderr).to.contain('users reset');
    } finally {
      await stopProcess(second.child);
    }
  });
});
