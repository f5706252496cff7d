/**
 * The first-run and API-key journeys of the settings console, as a user clicks them: setup from the printed link,
 * a key created and shown once, used against the API, rolled with a grace period (both keys work), revoked (401);
 * then sign-in with the chosen password, and the page's security headers.
 */
import { expect, test } from '@playwright/test';
import { capture, expectAccessible, meStatus, server } from './support';

const OWNER = {
  name: 'Dana Whitfield',
  email: 'dana@example.com',
  password: 'a long passphrase nobody guesses 42',
};

test('first-run setup, create a key, call the API with it, roll it, revoke it', async ({ page }) => {
  await page.goto(server.setupLink);
  await expect(page.getByRole('heading', { name: 'Set up your account' })).toBeVisible();
  await expect(page).toHaveURL(/\/console\/setup$/); // the token left the address bar
  await capture(page, 'setup');
  await page.getByLabel('Your name').fill(OWNER.name);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('New password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Set up and sign in' }).click();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Demo admin key' })).toBeVisible();

  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create an API key' });
  await dialog.getByLabel('Name').fill('Nightly export');
  await dialog.getByRole('checkbox', { name: 'write' }).check();
  await capture(page, 'api-key-create');
  await dialog.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByRole('dialog', { name: 'Your new API key' });
  await expect(shown.getByText('This key will not be shown again')).toBeVisible();
  const first = (await shown.getByTestId('new-key').innerText()).trim();
  expect(first).toMatch(/^mk_live_[0-9A-Za-z]{40}$/);
  await capture(page, 'api-key-shown-once');
  expect(await meStatus(first)).toBe(200);
  await shown.getByRole('button', { name: 'Done' }).click();

  const row = page.getByRole('row').filter({ hasText: first.slice(0, 12) });
  await expect(row.getByText('Nightly export')).toBeVisible();
  await expect(row.getByText(/ago|now/)).toBeVisible(); // last used, relative
  await capture(page, 'api-keys');
  await row.getByRole('button', { name: 'Roll' }).click();
  const roll = page.getByRole('dialog', { name: 'Roll “Nightly export”' });
  await roll.getByRole('radio', { name: '1 hour' }).check();
  await roll.getByRole('button', { name: 'Roll key' }).click();
  const rolled = page.getByRole('dialog', { name: 'Your new key (rolled)' });
  const second = (await rolled.getByTestId('new-key').innerText()).trim();
  expect(second).not.toBe(first);
  expect(await meStatus(first)).toBe(200);
  expect(await meStatus(second)).toBe(200);
  await rolled.getByRole('button', { name: 'Done' }).click();

  const successor = page.getByRole('row').filter({ hasText: second.slice(0, 12) });
  await successor.getByRole('button', { name: 'Revoke' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke “Nightly export”?' });
  await expect(confirm.getByText(second.slice(0, 12))).toBeVisible();
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Revoke “Nightly export”' }).click();
  await expect(successor.getByText('revoked')).toBeVisible();
  expect(await meStatus(second)).toBe(401);
  expect(await meStatus(first)).toBe(200); // still in its grace period
});

test('signs in with the chosen password; / sends a browser to the console', async ({ page }) => {
  await page.goto(`${server.baseUrl}/`);
  await expect(page).toHaveURL(/\/console\/sign-in$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await capture(page, 'sign-in');
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByRole('textbox', { name: 'Password' }).fill('not the password at all');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await page.getByRole('textbox', { name: 'Password' }).fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await page.setViewportSize({ width: 375, height: 740 });
  await expect(page.getByRole('button', { name: 'Navigation' })).toBeVisible();
  await expect(page.locator('#settings-navigation')).not.toBeInViewport(); // a drawer, closed
});

test('serves the page with a strict CSP and hashed, immutable assets', async ({ request }) => {
  const pageRes = await request.get(`${server.baseUrl}/console/settings/api-keys`);
  expect(pageRes.status()).toBe(200);
  const csp = pageRes.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  const html = await pageRes.text();
  const asset = /\/console\/assets\/[\w-]+-[\w-]{8}\.js/.exec(html)?.[0];
  expect(asset).toBeTruthy();
  const assetRes = await request.get(`${server.baseUrl}${asset}`);
  expect(assetRes.headers()['cache-control']).toContain('immutable');
  expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/); // no CDN, no external font
});
