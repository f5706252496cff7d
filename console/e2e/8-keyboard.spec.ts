/**
 * The console without a mouse: a person signs in, creates an API key, copies it, closes the dialog, revokes a key
 * after the confirmation and goes to Webhooks and the Audit log through the navigation with Tab, Shift+Tab, Enter,
 * Space and Escape only (no click). Every element focused on the way shows a focus ring; the skip link reaches the
 * page; a closed dialog gives the focus back to the button that opened it; a page change moves the focus to the new
 * page's heading. Then the theme switch (kept in localStorage, the system's scheme until then) and the navigation
 * drawer at 375 px, by keyboard too (docs/console.md, "Accessibility and small screens").
 */
import { expect, test } from '@playwright/test';
import { tabTo } from './keyboard';
import { OWNER, server } from './support';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('sign in, create, copy and revoke a key, and navigate, by keyboard only', async ({ page }) => {
  await page.goto(`${server.baseUrl}/console/sign-in`);
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(OWNER.email);
  await tabTo(page, page.getByRole('textbox', { name: 'Password' }));
  await page.keyboard.type(OWNER.password);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await expect(page).toHaveTitle('API keys · Meridian');

  // The first Tab reaches the skip link, shown while focused; it moves the focus to the page.
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await tabTo(page, skip, { max: 1 });
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();
  const create = page.getByRole('button', { name: 'Create key' });
  await tabTo(page, create, { max: 1 });

  // Create a key: the dialog focuses its first field; Space ticks a scope; Enter on the button submits.
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Create an API key' });
  await expect(dialog.getByLabel('Name')).toBeFocused();
  await page.keyboard.type('Keyboard key');
  await tabTo(page, dialog.getByRole('checkbox', { name: 'write' }));
  await page.keyboard.press('Space');
  await expect(dialog.getByRole('checkbox', { name: 'write' })).toBeChecked();
  await tabTo(page, dialog.getByRole('button', { name: 'Create key' }));
  await page.keyboard.press('Enter');

  // Copy it, close with Escape: the focus is back on "Create key".
  const shown = page.getByRole('dialog', { name: 'Your new API key' });
  const key = (await shown.getByTestId('new-key').innerText()).trim();
  await tabTo(page, shown.getByRole('button', { name: 'Copy key' }));
  await page.keyboard.press('Enter');
  await expect(shown.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await page.keyboard.press('Escape');
  await expect(shown).toBeHidden();
  await expect(create).toBeFocused();

  // Revoke it: Escape on the confirmation changes nothing and gives the focus back to "Revoke"; then confirm.
  const row = page.getByRole('row').filter({ hasText: key.slice(0, 12) });
  const revoke = row.getByRole('button', { name: 'Revoke' });
  await tabTo(page, revoke);
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Revoke “Keyboard key”?' });
  await expect(confirm).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(revoke).toBeFocused();
  await page.keyboard.press('Space');
  await tabTo(page, confirm.getByRole('button', { name: 'Revoke “Keyboard key”' }));
  await page.keyboard.press('Enter');
  await expect(row.getByText('revoked')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeFocused();
  const me = await fetch(`${server.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
  expect(me.status).toBe(401);

  // Through the navigation (before the page in the tab order): each page change focuses the new heading.
  await tabTo(page, page.getByRole('link', { name: 'Webhooks' }), { back: true });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeFocused();
  await expect(page).toHaveTitle('Webhooks · Meridian');
  await tabTo(page, page.getByRole('link', { name: 'Audit log' }), { back: true });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeFocused();
  await expect(page.getByRole('link', { name: 'Audit log' })).toHaveAttribute('aria-current', 'page');
});

test('the theme switch overrides the system scheme and is remembered', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`${server.baseUrl}/console/sign-in`);
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(OWNER.email);
  await tabTo(page, page.getByRole('textbox', { name: 'Password' }));
  await page.keyboard.type(OWNER.password);
  await page.keyboard.press('Enter');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light'); // the system's, by default
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark'); // and it follows the system
  await page.emulateMedia({ colorScheme: 'light' });

  await tabTo(page, page.getByRole('button', { name: 'Use the dark theme' }));
  await page.keyboard.press('Space');
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('button', { name: 'Use the light theme' })).toBeFocused();
  expect(await page.evaluate(() => localStorage.getItem('mantine-color-scheme-value'))).toBe('dark');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark'); // remembered, the system being light

  // At 375 px the navigation is a drawer behind the burger, out of the tab order while closed.
  await page.setViewportSize({ width: 375, height: 740 });
  const burger = page.getByRole('button', { name: 'Navigation' });
  await expect(burger).toHaveAttribute('aria-expanded', 'false');
  await page.reload();
  await tabTo(page, burger, { max: 2 }); // the skip link, then the burger
  await page.keyboard.press('Enter');
  await expect(burger).toHaveAttribute('aria-expanded', 'true');
  const general = page.getByRole('link', { name: 'General' });
  await tabTo(page, general);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'General', level: 1 })).toBeFocused();
  await expect(burger).toHaveAttribute('aria-expanded', 'false');
  await expect(general).not.toBeInViewport();
});
