/**
 * The console when the API says no, against the real server (no stubbed route): the delivery log of an endpoint
 * deleted meanwhile shows the 404 problem's title and detail; an endpoint changed through the API while its edit
 * dialog is open is not overwritten (the stale `If-Match` reads "changed by someone else — reload", and Reload shows
 * the current version to change again); once the session is signed out in another tab, every page shows the API's
 * refusal as its title and detail; on a slow network, every page shows its loading state first.
 */
import { expect, type Page, type Response, test } from '@playwright/test';
import { capture, server, signIn } from './support';

/** A call to `/v1` with the printed admin key: the status and the JSON body (or null). */
async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.baseUrl}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${server.adminKey}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** The problem document of a `/v1` answer the page received (watched, not changed): it has a title and a detail. */
async function problemOf(response: Promise<Response>): Promise<{ title: string; detail: string }> {
  const problem = (await (await response).json()) as { title: string; detail: string };
  expect(problem.title).toBeTruthy();
  expect(problem.detail).toBeTruthy();
  return problem;
}

/** The next `/v1` answer with `status` the page receives. */
function answer(page: Page, status: number): Promise<Response> {
  return page.waitForResponse((r) => r.url().includes('/v1/') && r.status() === status);
}

/** Expects the page's alert to show the problem's title and detail. */
async function expectProblem(page: Page, problem: { title: string; detail: string }) {
  const alert = page.getByRole('alert').filter({ hasText: problem.title });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText(problem.detail);
}

test('a deleted endpoint and a concurrent edit: the problem shown, nothing overwritten', async ({ page }) => {
  const gone = await api('POST', '/webhooks', { url: 'http://127.0.0.1:9/deleted-meanwhile', events: ['*'] });
  expect(gone.status).toBe(201);
  const edited = await api('POST', '/webhooks', {
    url: 'http://127.0.0.1:9/edited-meanwhile',
    description: 'As created',
    events: ['*'],
  });
  expect(edited.status).toBe(201);
  await signIn(page);
  await page.getByRole('link', { name: 'Webhooks' }).click();

  // The delivery log of an endpoint deleted through the API while the page shows it.
  const goneRow = page.getByRole('row').filter({ hasText: 'deleted-meanwhile' });
  await goneRow.getByRole('button', { name: 'Deliveries' }).click();
  await expect(page.getByText('No deliveries yet: send a test event.')).toBeVisible();
  await capture(page, 'webhook-deliveries-empty');
  expect((await api('DELETE', `/webhooks/${gone.body.id}`)).status).toBe(204);
  const notFound = answer(page, 404);
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'FAILED' }).click();
  await expectProblem(page, await problemOf(notFound));
  await capture(page, 'webhook-deliveries-error');

  // A concurrent change while the edit dialog is open: the console's save is refused, the other change stays.
  await page.reload();
  const row = page.getByRole('row').filter({ hasText: 'edited-meanwhile' });
  await row.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit endpoint' });
  await dialog.getByLabel('Description').fill('From the console');
  const theirs = await api(
    'PATCH',
    `/webhooks/${edited.body.id}`,
    { description: 'From the API' },
    {
      'if-match': `"${edited.body.version}"`,
    },
  );
  expect(theirs.status).toBe(200);
  await dialog.getByRole('button', { name: 'Save' }).click();
  const stale = dialog.getByRole('alert');
  await expect(stale).toContainText('Changed by someone else');
  await expect(stale).toContainText('reload');
  await capture(page, 'webhook-edit-stale');
  expect((await api('GET', `/webhooks/${edited.body.id}`)).body.description).toBe('From the API');
  // Reload: the form shows the current version; the change made again is saved over it.
  await stale.getByRole('button', { name: 'Reload' }).click();
  await expect(dialog.getByLabel('Description')).toHaveValue('From the API');
  await expect(stale).toBeHidden();
  await dialog.getByLabel('Description').fill('From the console');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByText('From the console')).toBeVisible();
  expect((await api('GET', `/webhooks/${edited.body.id}`)).body.description).toBe('From the console');
  expect((await api('DELETE', `/webhooks/${edited.body.id}`)).status).toBe(204);
});

test('signed out in another tab: every page shows the refusal as its title and detail', async ({
  page,
  context,
}) => {
  await signIn(page);
  const keysLoadedAt = Date.now();
  const other = await context.newPage();
  await other.goto(`${server.baseUrl}/console/settings/general`);
  await other.getByRole('button', { name: 'Sign out' }).click();
  await expect(other.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  // The first tab still holds its access token, which the API now refuses (docs/accounts.md, "Console tokens").
  for (const [link, name] of [
    ['Webhooks', 'webhooks'],
    ['General', 'general'],
    ['Audit log', 'audit-log'],
    ['API keys', 'api-keys'],
  ] as const) {
    // The keys were read at sign-in; the console reads them again once they are 5 s old (main.tsx, staleTime).
    if (name === 'api-keys') await page.waitForTimeout(Math.max(0, keysLoadedAt + 5_500 - Date.now()));
    const refused = answer(page, 401);
    await page.getByRole('link', { name: link }).click();
    await expect(page.getByRole('heading', { name: link, level: 1 })).toBeVisible();
    await expectProblem(page, await problemOf(refused));
    if (name === 'audit-log') await capture(page, `${name}-error`);
  }
});

test('on a slow network every page shows its loading state, then its content', async ({ page }) => {
  await signIn(page);
  // Chromium holds every answer of the real server back by 1.5 s (DevTools network emulation); nothing is stubbed.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 1500,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  for (const [link, loading, loaded] of [
    [
      'Webhooks',
      'Loading webhook endpoints…',
      page.getByRole('table', { name: 'Endpoints' }).or(page.getByText('No endpoints yet')),
    ],
    ['General', 'Loading the organisation…', page.getByText('Time zone')],
    ['Audit log', 'Loading audit rows…', page.getByTestId('audit-row').first()],
  ] as const) {
    await page.getByRole('link', { name: link }).click();
    await expect(page.getByRole('heading', { name: link, level: 1 })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: loading })).toBeVisible();
    await expect(loaded).toBeVisible();
    await expect(page.getByRole('status')).toHaveCount(0);
  }
});
