/**
 * A viewer's console: an account created with the CLI (`users create --role viewer`, which prints a setup link), set
 * up in a second browser context; the create-key button is absent, and a direct API call with the viewer's console
 * token to create a key answers 403.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { capture } from './support';
import { expectNoKeyManagement } from './viewer';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('a viewer is offered no key management, and the API refuses it anyway', async ({ browser }) => {
  const out = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'server/cli.ts',
      'users',
      'create',
      '--tenant',
      'NYC Capital Projects (demo)',
      '--email',
      'vera@example.com',
      '--role',
      'viewer',
    ],
    {
      cwd: root,
      env: { ...process.env, ...JSON.parse(process.env.E2E_SERVER_ENV as string) },
      encoding: 'utf8',
    },
  );
  const link = /(http\S+\/console\/setup#token=\S+)/.exec(out)?.[1] as string;
  expect(link).toBeTruthy();
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await page.getByLabel('Your name').fill('Vera Viewer');
  await page.getByLabel('Email').fill('vera@example.com');
  await page.getByLabel('New password').fill('another long passphrase for vera');
  await page.getByRole('button', { name: 'Set up and sign in' }).click();
  await expectNoKeyManagement(page);
  await capture(page, 'api-keys-viewer');
  await context.close();
});
