/**
 * Settings → General and Settings → Webhooks with what the API added for them: rename the organisation and change its
 * time zone (persisted across a reload and in `GET /v1/tenant`), the rate limit's use this minute; reveal an
 * endpoint's signing secret and verify a delivery with it at a real receiver (`standardwebhooks`), read the first bytes
 * of the receiver's answer in the attempt, and filter the delivery log by event kind.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { capture, server, signIn } from './support';

/** What the journeys read of `GET /v1/tenant`. */
interface TenantBody {
  name: string;
  currency: string;
  timezone: string;
  rateLimit: { requestsPerMinute: number; used: number; remaining: number };
}

/** `/v1` with the printed admin key (of the tenant the owner set up): the JSON answer (2xx asserted). */
async function api<T = { id: string }>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.baseUrl}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${server.adminKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return (await res.json()) as T;
}

/** Picks an option of a searchable select: types `search`, clicks the option named `option`. */
async function pick(page: Page, label: string, search: string, option: string | RegExp): Promise<void> {
  const input = page.getByRole('combobox', { name: label });
  await input.click();
  await input.fill(search);
  await page.getByRole('option', { name: option }).first().click();
}

test('rename the organisation and change its time zone; see the rate limit used this minute', async ({
  page,
}) => {
  const before = await api<TenantBody>('GET', '/tenant');
  try {
    await signIn(page);
    await page.getByRole('link', { name: 'General' }).click();
    const name = page.getByLabel('Organisation name');
    await expect(name).toHaveValue(before.name);
    await expect(page.getByTestId('rate-limit-used')).toHaveText(/^\d+ used in the last 60 s · \d+ left$/);
    // The window slides: once its oldest request leaves, the page reads the use again.
    await expect(page.getByTestId('rate-limit-reset')).toHaveText(/resets in \d+ s/, { timeout: 15_000 });
    await expect(
      page.getByRole('progressbar', { name: 'Requests used in the last 60 seconds' }),
    ).toBeVisible();

    await name.fill('NYC Capital Projects (e2e)');
    await pick(page, 'Time zone', 'Europe/Lis', /^Europe\/Lisbon$/);
    await pick(page, 'Currency', 'EUR', /^EUR — /);
    await expect(page.getByText('Amounts are not converted')).toBeVisible();
    await pick(page, 'Currency', before.currency, new RegExp(`^${before.currency} — `));
    await expect(page.getByText('Amounts are not converted')).toBeHidden();
    await capture(page, 'general-edit');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').getByText('Saved.')).toBeVisible();

    await page.reload();
    await expect(page.getByLabel('Organisation name')).toHaveValue('NYC Capital Projects (e2e)');
    await expect(page.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Europe/Lisbon');
    const after = await api<TenantBody>('GET', '/tenant');
    expect(after).toMatchObject({
      name: 'NYC Capital Projects (e2e)',
      timezone: 'Europe/Lisbon',
      currency: before.currency,
    });
    expect(after.rateLimit.used).toBeGreaterThan(0);
    expect(after.rateLimit.remaining).toBe(after.rateLimit.requestsPerMinute - after.rateLimit.used);
  } finally {
    // Later journeys find the tenant by its name (the CLI's --tenant): put it back.
    await api('PATCH', '/tenant', { name: before.name, timezone: before.timezone });
  }
});

test('reveal the signing secret and verify a delivery with it; read the answer’s first bytes; filter by event kind', async ({
  page,
}) => {
  const received: { headers: Record<string, string>; body: string }[] = [];
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString(),
      });
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"accepted":true,"queue":"pmo-bridge"}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/all-events`;
  try {
    await signIn(page);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an endpoint' });
    await dialog.getByLabel('Endpoint URL').fill(url);
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    // Closed without reading it: revealed later from the endpoint's details.
    await page.getByRole('dialog', { name: 'Signing secret' }).getByRole('button', { name: 'Done' }).click();

    const row = page.getByRole('row').filter({ hasText: url });
    await row.getByRole('button', { name: 'Deliveries' }).click();
    const details = page.getByRole('region', { name: 'Endpoint details' });
    const secretBox = details.getByTestId('revealed-secret');
    await expect(secretBox).toHaveText(/^whsec_•+$/);
    await details.getByRole('button', { name: 'Reveal' }).click();
    await expect(secretBox).toHaveText(/^whsec_[A-Za-z0-9+/]+=*$/);
    const secret = (await secretBox.innerText()).trim();
    await expect(details.getByRole('button', { name: 'Copy' })).toBeVisible();

    await details.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => received.length).toBe(1);
    const first = received[0] as (typeof received)[number];
    expect((new Webhook(secret).verify(first.body, first.headers) as { event: string }).event).toBe(
      'project.status_changed',
    );
    const rows = details.getByTestId('delivery');
    await expect(rows.first().getByText('SUCCEEDED')).toBeVisible();
    await rows.first().getByRole('button', { name: 'Body' }).click();
    await expect(rows.first().getByTestId('attempt-body')).toHaveText(
      '{"accepted":true,"queue":"pmo-bridge"}',
    );

    // A second kind of event: a risk recorded through the API.
    const project = await api('POST', '/projects', {
      name: 'Webhook filter e2e',
      startDate: '2026-01-01',
      endDate: '2026-12-31',
    });
    await api('POST', '/risks', {
      projectId: project.id,
      title: 'Crane permit delayed',
      likelihood: 3,
      impact: 4,
    });
    await expect.poll(() => received.some((r) => r.body.includes('"risk.created"'))).toBe(true);
    await details.getByRole('button', { name: 'Hide', exact: true }).click();
    await expect(secretBox).toHaveText(/^whsec_•+$/);
    await page.getByRole('combobox', { name: 'Event' }).click();
    await page.getByRole('option', { name: 'risk.created' }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first().getByText('risk.created')).toBeVisible();
    await rows.first().getByRole('button', { name: 'Body' }).click();
    await expect(rows.first().getByTestId('attempt-body')).toBeVisible();
    await capture(page, 'webhook-deliveries-filtered');
    await page.getByRole('combobox', { name: 'Event' }).click();
    await page.getByRole('option', { name: 'project.status_changed' }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first().getByText('project.status_changed')).toBeVisible();
  } finally {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
});
