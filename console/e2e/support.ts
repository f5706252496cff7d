/**
 * What the console's end-to-end tests share: the server the global setup started, an accessibility check with axe
 * (no serious or critical violation), and screenshots of a page at desktop and phone widths in the light and the
 * dark theme for the README (docs/console/<name>-<theme>.png, <name>-375px-<theme>.png).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The server's origin, its printed admin key and the owner's one-time setup link (./server.ts). */
export const server = {
  get baseUrl(): string {
    return process.env.E2E_BASE_URL as string;
  },
  get setupLink(): string {
    return process.env.E2E_SETUP_LINK as string;
  },
  get adminKey(): string {
    return process.env.E2E_ADMIN_KEY as string;
  },
};

const SHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/console');

/** Runs axe on the page as it is; fails on any serious or critical violation, naming them. */
export async function expectAccessible(page: Page): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad, 'serious or critical accessibility violations').toEqual([]);
}

/** The widths every captured page is shot at: the desktop the tests run at, and a 375 px phone. */
const PHONE = { width: 375, height: 740 };

/**
 * Screenshots the page at the desktop width and at 375 px wide, each in the light and the dark theme
 * (docs/console/<name>-<theme>.png and <name>-375px-<theme>.png, the phone's shot of the whole page), checking
 * each with axe. The viewport and the light theme are restored afterwards.
 */
export async function capture(page: Page, name: string): Promise<void> {
  const desktop = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const [size, suffix] of [
    [desktop, ''],
    [PHONE, '-375px'],
  ] as const) {
    await page.setViewportSize(size);
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
      await expectAccessible(page);
      await page.screenshot({
        path: path.join(SHOTS, `${name}${suffix}-${theme}.png`),
        animations: 'disabled',
        fullPage: suffix !== '',
      });
    }
  }
  await page.setViewportSize(desktop);
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The owner the first journey sets up (1-api-keys.spec.ts runs first: files run in name order, one worker). */
export const OWNER = {
  name: 'Dana Whitfield',
  email: 'dana@example.com',
  password: 'a long passphrase nobody guesses 42',
};

/** Signs in as the owner through the sign-in page. */
export async function signIn(page: Page, who = OWNER): Promise<void> {
  await page.goto(`${server.baseUrl}/console/sign-in`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
}

/** `GET /v1/me` with a key: the status. */
export async function meStatus(key: string): Promise<number> {
  const res = await fetch(`${server.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
  return res.status;
}
