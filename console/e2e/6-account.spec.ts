/**
 * The account page as its owner uses it (docs/accounts.md): change the name (the header shows it), see the password
 * rules refuse a weak password; turn on two-factor sign-in by typing the secret the page shows into an
 * "authenticator" (otplib, as the app would compute it), keep the recovery codes shown once, sign out and back in
 * with a code, then with a recovery code, regenerate the codes, turn it off again; end another browser's session,
 * then sign out everywhere and see the other browser signed out. A member whose sign-in the tenant's
 * `requireTwoFactor` holds back enrols on the way in, and is not offered to turn it off. The owner ends as the later files expect: the
 * name, the password only, no second factor (support.ts, `signIn`).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { capture, OWNER, signIn } from './support';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What an authenticator app shows `offsetS` seconds from now (RFC 6238, 30-second steps). */
const totp = (secret: string, offsetS = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetS });

async function openAccount(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
}

/** The sign-in page's first step (email and password), which then asks for the second factor. */
async function signInToSecondStep(page: Page): Promise<void> {
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
}

test('change the name; a weak new password is refused with the rule it breaks', async ({ page }) => {
  await signIn(page);
  await openAccount(page);
  await expect(page.getByText('Off', { exact: true })).toBeVisible();
  await expect(page.getByTestId('session-row').first()).toBeVisible();
  await capture(page, 'account');

  await page.getByLabel('Your name').fill('Dana Whitfield-Okafor');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByTestId('user-menu')).toHaveText('Dana Whitfield-Okafor');

  await page.getByLabel('Current password').fill('not my password at all');
  await page.getByLabel('New password').fill('an entirely new passphrase 7');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert').getByText('The current password is not right.')).toBeVisible();
  await page.getByLabel('Current password').fill(OWNER.password);
  await page.getByLabel('New password').fill('short one');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert').getByText(/must have at least 15 characters/)).toBeVisible();

  await page.getByLabel('Your name').fill(OWNER.name);
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByTestId('user-menu')).toHaveText(OWNER.name);
});

test('two-factor sign-in: enrol, sign in with a code and a recovery code, new codes, turn it off', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  await openAccount(page);
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  const enrol = page.getByRole('dialog', { name: 'Turn on two-factor sign-in' });
  await expect(enrol.getByRole('img', { name: /QR code/ })).toBeVisible();
  const secret = (await enrol.getByTestId('totp-secret').innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await capture(page, 'account-two-factor-enrolment');
  await enrol.getByLabel('Enter the 6-digit code the app shows').fill('000000');
  await enrol.getByRole('button', { name: 'Turn on' }).click();
  await expect(enrol.getByRole('alert').getByText(/The code is not valid/)).toBeVisible();
  await enrol.getByLabel('Enter the 6-digit code the app shows').fill(await totp(secret));
  await enrol.getByRole('button', { name: 'Turn on' }).click();

  const shown = page.getByRole('dialog', { name: 'Your recovery codes' });
  await expect(shown.getByText('These codes will not be shown again')).toBeVisible();
  const codes = (await shown.getByTestId('recovery-codes').locator('code').allInnerTexts()).map((c) =>
    c.trim(),
  );
  expect(codes).toHaveLength(10);
  const download = page.waitForEvent('download');
  await shown.getByRole('link', { name: 'Download' }).click();
  expect((await download).suggestedFilename()).toBe('meridian-recovery-codes.txt');
  await capture(page, 'account-recovery-codes');
  await shown.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByTestId('recovery-codes-left')).toHaveText('10 of 10 recovery codes left');

  // The enrolment used this step's code, and a code works once: an app shows the next one 30 s later at most, and
  // the server accepts a code one step either side of now.
  await signOut(page);
  await signInToSecondStep(page);
  await page.getByLabel('Authentication code').first().click();
  await page.keyboard.type(await totp(secret, 30));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();

  await signOut(page);
  await signInToSecondStep(page);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(codes[4] as string);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await openAccount(page);
  await expect(page.getByTestId('recovery-codes-left')).toHaveText('9 of 10 recovery codes left');

  await page.getByRole('button', { name: 'Regenerate recovery codes' }).click();
  const regenerate = page.getByRole('dialog', { name: 'Regenerate recovery codes' });
  await regenerate.getByLabel('Current password').fill(OWNER.password);
  await regenerate.getByRole('button', { name: 'Regenerate codes' }).click();
  const fresh = page.getByRole('dialog', { name: 'Your recovery codes' });
  await expect(fresh.getByTestId('recovery-codes').locator('code')).toHaveCount(10);
  const newCodes = await fresh.getByTestId('recovery-codes').locator('code').allInnerTexts();
  expect(newCodes).toHaveLength(10);
  expect(newCodes).not.toContain(codes[0]);
  await fresh.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByTestId('recovery-codes-left')).toHaveText('10 of 10 recovery codes left');

  await page.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
  const off = page.getByRole('dialog', { name: 'Turn off two-factor sign-in?' });
  await off.getByLabel('Current password').fill('not my password at all');
  await off.getByRole('button', { name: 'Turn off' }).click();
  await expect(off.getByRole('alert').getByText('The password is not right.')).toBeVisible();
  await off.getByLabel('Current password').fill(OWNER.password);
  await off.getByRole('button', { name: 'Turn off' }).click();
  await expect(page.getByRole('button', { name: 'Turn on two-factor sign-in' })).toBeVisible();
  await signOut(page);
  await signIn(page); // the password alone again
});

/** Sets the tenant's `requireTwoFactor` as the signed-in owner of `page`, through `/v1` with a console token. */
async function requireTwoFactor(page: Page, on: boolean): Promise<void> {
  const status = await page.evaluate(async (value) => {
    const token = await (await fetch('/auth/token', { method: 'POST' })).json();
    const res = await fetch('/v1/tenant', {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ settings: { requireTwoFactor: value } }),
    });
    return res.status;
  }, on);
  expect(status).toBe(200);
}

test('a sign-in held back by requireTwoFactor enrols on the way in', async ({ page, browser }) => {
  test.setTimeout(90_000);
  await signIn(page);
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'server/cli.ts', 'users', 'create', '--tenant', 'NYC Capital Projects (demo)'].concat(
      ['--email', 'mia@example.com', '--role', 'member'],
    ),
    {
      cwd: root,
      env: { ...process.env, ...JSON.parse(process.env.E2E_SERVER_ENV as string) },
      encoding: 'utf8',
    },
  );
  const link = /(http\S+\/console\/setup#token=\S+)/.exec(out)?.[1] as string;
  expect(link).toBeTruthy();
  await requireTwoFactor(page, true);
  const context = await browser.newContext();
  try {
    const mia = await context.newPage();
    await mia.goto(link);
    await mia.getByLabel('Your name').fill('Mia Member');
    await mia.getByLabel('Email').fill('mia@example.com');
    await mia.getByLabel('New password').fill('a long passphrase for mia 11');
    await mia.getByRole('button', { name: 'Set up and sign in' }).click();
    await expect(mia.getByRole('heading', { name: 'Set up two-factor sign-in' })).toBeVisible();
    await expect(mia).toHaveURL(/\/console\/two-factor\/enrol$/);
    const secret = (await mia.getByTestId('totp-secret').innerText()).trim();
    await capture(mia, 'two-factor-enrol');
    await mia.getByLabel('Enter the 6-digit code the app shows').fill(await totp(secret));
    await mia.getByRole('button', { name: 'Turn on' }).click();
    await expect(mia.getByTestId('recovery-codes').locator('code')).toHaveCount(10);
    await mia.getByRole('button', { name: 'Continue' }).click();
    await expect(mia.getByRole('heading', { name: 'API keys' })).toBeVisible();
    await openAccount(mia);
    await expect(mia.getByText('Your organisation requires two-factor sign-in')).toBeVisible();
    await expect(mia.getByRole('button', { name: 'Turn off two-factor sign-in' })).toHaveCount(0);
  } finally {
    await requireTwoFactor(page, false);
    await context.close();
  }
});

test('end another browser session, then sign out everywhere', async ({ page, browser }) => {
  test.setTimeout(90_000);
  await signIn(page);
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await signIn(other);

  await openAccount(page);
  const rows = page.getByTestId('session-row');
  // Newest first: the other browser signed in last.
  await expect(rows.first().getByRole('button', { name: /^Sign out/ })).toBeVisible();
  await expect(page.getByTestId('sessions').getByText('This session')).toHaveCount(1);
  await page.getByRole('heading', { name: 'Sessions' }).scrollIntoViewIfNeeded();
  await capture(page, 'account-sessions');
  const before = await rows.count();
  await rows
    .first()
    .getByRole('button', { name: /^Sign out/ })
    .click();
  await expect(rows).toHaveCount(before - 1);
  await other.reload();
  await expect(other.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  await signIn(other);
  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  const confirm = page.getByRole('dialog', { name: 'Sign out everywhere?' });
  await expect(confirm.getByText('this one included')).toBeVisible();
  await confirm.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await other.reload();
  await expect(other.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  const status = await other.evaluate(async () => (await fetch('/auth/session')).status);
  expect(status).toBe(401);
  await elsewhere.close();
});
