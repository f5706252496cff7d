/**
 * The audit trail of every earlier journey (this file runs last: files run in name order against one server), found
 * in Settings → Audit log as an owner would look for it: filtered by action, resource, actor and date range, paged,
 * and each expected row opened to its changes before and after. The expected actions are a table: a journey that
 * adds actions adds its rows here.
 */
import { expect, type Page, test } from '@playwright/test';
import { capture, server, signIn } from './support';

/** An audit row an earlier journey must have left. */
interface Expected {
  /** The action the server writes (`<resourceType>.<verb>`, server/services). */
  action: string;
  resourceType: string;
  /** The spec file whose journey performs it. */
  journey: string;
  /** A field of `changes` the row shows, with its value before and after as the table prints them (JSON). */
  change?: { field: string; before?: string; after?: string };
  /** Made by the owner in the console (filtered by the owner's id); otherwise by an API key or the system. */
  byOwner?: boolean;
}

const EXPECTED: Expected[] = [
  { action: 'auth.setup_completed', resourceType: 'user', journey: '1-api-keys', byOwner: true },
  {
    action: 'api_key.created',
    resourceType: 'api_key',
    journey: '1-api-keys',
    change: { field: 'name', before: '—', after: '"Keyboard key"' },
    byOwner: true,
  },
  {
    action: 'api_key.rolled',
    resourceType: 'api_key',
    journey: '1-api-keys',
    change: { field: 'successorId', before: '—' },
    byOwner: true,
  },
  {
    action: 'api_key.revoked',
    resourceType: 'api_key',
    journey: '1-api-keys, 8-keyboard',
    change: { field: 'revokedAt', before: '—' },
    byOwner: true,
  },
  { action: 'auth.sign_in_failed', resourceType: 'user', journey: '1-api-keys' },
  { action: 'auth.signed_in', resourceType: 'user', journey: 'every journey', byOwner: true },
  {
    action: 'webhook.created',
    resourceType: 'webhook',
    journey: '2-webhooks, 8-states',
    change: { field: 'url', before: '—' },
  },
  { action: 'webhook.delivery_resent', resourceType: 'webhook', journey: '2-webhooks', byOwner: true },
  {
    action: 'tenant.updated',
    resourceType: 'tenant',
    journey: '3-settings',
    change: { field: 'settings.llmEnabled' },
    byOwner: true,
  },
  { action: 'user.created', resourceType: 'user', journey: '4-viewer' },
  {
    action: 'webhook.updated',
    resourceType: 'webhook',
    journey: '8-states (through the API, while the console edited it)',
    change: { field: 'description', before: '"As created"', after: '"From the API"' },
  },
  {
    action: 'webhook.updated',
    resourceType: 'webhook',
    journey: '8-states (in the console, after Reload)',
    change: { field: 'description', before: '"From the API"', after: '"From the console"' },
    byOwner: true,
  },
  { action: 'webhook.deleted', resourceType: 'webhook', journey: '8-states' },
  { action: 'auth.signed_out', resourceType: 'user', journey: '8-states', byOwner: true },
  { action: 'member.invited', resourceType: 'invitation', journey: '5-members', byOwner: true },
  { action: 'member.joined', resourceType: 'member', journey: '5-members' },
  { action: 'member.role_changed', resourceType: 'member', journey: '5-members', byOwner: true },
  { action: 'member.removed', resourceType: 'member', journey: '5-members', byOwner: true },
  { action: 'invitation.revoked', resourceType: 'invitation', journey: '5-members', byOwner: true },
  {
    action: 'user.updated',
    resourceType: 'user',
    journey: '6-account',
    change: { field: 'name' },
    byOwner: true,
  },
  { action: 'auth.two_factor_enabled', resourceType: 'user', journey: '6-account', byOwner: true },
  { action: 'auth.recovery_codes_regenerated', resourceType: 'user', journey: '6-account', byOwner: true },
  { action: 'auth.two_factor_disabled', resourceType: 'user', journey: '6-account', byOwner: true },
  { action: 'auth.session_revoked', resourceType: 'user', journey: '6-account', byOwner: true },
  { action: 'auth.signed_out_everywhere', resourceType: 'user', journey: '6-account', byOwner: true },
  {
    action: 'tenant.updated',
    resourceType: 'tenant',
    journey: '7-general-webhooks',
    change: { field: 'timezone' },
    byOwner: true,
  },
  {
    action: 'webhook.secret_revealed',
    resourceType: 'webhook',
    journey: '7-general-webhooks',
    byOwner: true,
  },
];

const rows = (page: Page) => page.getByTestId('audit-row');

/** Fills the filter form (empty strings clear a field) and applies it. */
async function filter(
  page: Page,
  fields: Partial<Record<'Action' | 'Resource type' | 'Actor (user id)' | 'From' | 'Until', string>>,
) {
  for (const [label, value] of Object.entries(fields))
    await page.getByLabel(label, { exact: true }).fill(value);
  await page.getByRole('button', { name: 'Filter' }).click();
}

/** The total the page reports ("N rows"). */
async function total(page: Page): Promise<number> {
  const text = await page.getByText(/^\d+ rows?$/).innerText();
  return Number.parseInt(text, 10);
}

/** `datetime-local` text for an instant, in the browser's time zone. */
function local(page: Page, iso: string): Promise<string> {
  return page.evaluate((at) => {
    const d = new Date(at);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  }, iso);
}

test('every earlier journey is in the audit log: filtered, paged, opened', async ({ page }) => {
  const me = await fetch(`${server.baseUrl}/v1/me`, {
    headers: { authorization: `Bearer ${server.adminKey}` },
  });
  const ownerId = ((await me.json()) as { user: { id: string } }).user.id;
  await signIn(page);
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(rows(page).first()).toBeVisible();
  const all = await total(page);

  // Paged 25 at a time, newest first: page 2 starts where page 1 ends.
  expect(all).toBeGreaterThan(25);
  await expect(rows(page)).toHaveCount(25);
  const lastOfFirst = await rows(page).last().locator('time').getAttribute('datetime');
  await page.getByRole('button', { name: 'Page 2' }).click();
  await expect(page.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  const firstOfSecond = await rows(page).first().locator('time').getAttribute('datetime');
  expect(Date.parse(firstOfSecond as string)).toBeLessThanOrEqual(Date.parse(lastOfFirst as string));
  await expect(rows(page)).toHaveCount(Math.min(25, all - 25));

  // A date range: the last day holds every row; a range in the future none (the empty state).
  await filter(page, {
    From: await local(page, new Date(Date.now() - 86_400_000).toISOString()),
    Until: await local(page, new Date(Date.now() + 3_600_000).toISOString()),
  });
  await expect(page.getByText(`${all} rows`)).toBeVisible();
  await filter(page, { From: '2100-01-01T00:00', Until: '2100-01-02T00:00' });
  await expect(page.getByText('No audit rows match.')).toBeVisible();
  await filter(page, { From: '', Until: '' });

  for (const want of EXPECTED) {
    await test.step(`${want.action} (${want.journey})`, async () => {
      await filter(page, {
        Action: want.action,
        'Resource type': want.resourceType,
        'Actor (user id)': want.byOwner ? ownerId : '',
      });
      const found = rows(page);
      await expect(found.first()).toBeVisible();
      for (const row of await found.all())
        await expect(row.getByText(want.action, { exact: true })).toBeVisible();
      if (want.byOwner) await expect(found.first().getByText(/^You/)).toBeVisible();
      if (want.action === 'tenant.updated') await capture(page, 'audit-log-filtered');
      if (!want.change) return;
      // The newest such row whose changes name the field, opened: the field with its value before and after.
      const { field, before, after } = want.change;
      const count = await found.count();
      for (let i = 0; i < count; i++) {
        await found.nth(i).getByRole('button', { name: 'Show' }).click();
        const change = page
          .getByRole('table', { name: 'Changes' })
          .getByRole('row')
          .filter({ hasText: field });
        const cells = change.getByRole('cell');
        if ((await change.count()) === 1 && (!after || (await cells.nth(2).innerText()) === after)) {
          if (before) await expect(cells.nth(1)).toHaveText(before);
          if (after) await expect(cells.nth(2)).toHaveText(after);
          if (want.action === 'webhook.updated') await capture(page, 'audit-log-expanded');
          await found.nth(i).getByRole('button', { name: 'Hide' }).click();
          return;
        }
        await found.nth(i).getByRole('button', { name: 'Hide' }).click();
      }
      throw new Error(`no ${want.action} row shows ${field}${after ? ` → ${after}` : ''}`);
    });
  }
});
