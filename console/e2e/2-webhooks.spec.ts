/**
 * The webhook journey of the settings console against a real receiver started by the test: add an endpoint, send a
 * test event that the receiver verifies with the `standardwebhooks` package, see it in the delivery log; make the
 * receiver fail and see the retry scheduled; resend once it recovers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { capture, signIn } from './support';

interface Got {
  headers: Record<string, string>;
  body: string;
}

test('add an endpoint, send a verified test event, see a retry scheduled, resend after recovery', async ({
  page,
}) => {
  const received: Got[] = [];
  let failing = false;
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString(),
      });
      res.writeHead(failing ? 500 : 200).end(failing ? 'receiver down' : 'ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/meridian`;
  try {
    await signIn(page);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expect(page.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
    await expect(page.getByText('No endpoints yet')).toBeVisible();
    await capture(page, 'webhooks-empty');

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an endpoint' });
    await dialog.getByLabel('Endpoint URL').fill(url);
    await dialog.getByLabel('Description').fill('PMO reporting bridge');
    await dialog.getByRole('checkbox', { name: 'All events' }).uncheck();
    await dialog.getByRole('checkbox', { name: 'project.status_changed' }).check();
    await capture(page, 'webhook-create');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.getByRole('dialog', { name: 'Signing secret' });
    const secret = (await shown.getByTestId('webhook-secret').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await shown.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: 'Deliveries' }).click();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => received.length).toBe(1);
    const first = received[0] as Got;
    const verified = new Webhook(secret).verify(first.body, first.headers) as { event: string };
    expect(verified.event).toBe('project.status_changed');
    const rows = page.getByTestId('delivery');
    await expect(rows.first().getByText('SUCCEEDED')).toBeVisible();
    await expect(rows.first().getByText(/^200 · \d+ ms/)).toBeVisible();

    failing = true;
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => received.length).toBe(2);
    const retrying = rows.first();
    await expect(retrying.getByText('PENDING')).toBeVisible();
    await expect(retrying.getByText(/^500 · \d+ ms/)).toBeVisible();
    await expect(retrying.getByText(/in 10 minutes/)).toBeVisible(); // the retry, scheduled
    await expect(page.getByTestId('health')).toHaveText('1 failed attempts in a row');
    await expect(page.getByTestId('endpoint-health')).toContainText('Failing: 1 failure in a row', {
      timeout: 10_000,
    });
    await capture(page, 'webhook-deliveries');

    failing = false;
    await retrying.getByRole('button', { name: 'Resend' }).click();
    await expect.poll(() => received.length).toBe(3);
    const third = received[2] as Got;
    expect(third.headers['webhook-id']).toBe(received[1]?.headers['webhook-id']);
    new Webhook(secret).verify(third.body, third.headers);
    await expect(rows.first().getByText('SUCCEEDED')).toBeVisible();
    // The endpoint's health, kept by the API: the failure above, then this success.
    await expect(page.getByTestId('endpoint-health')).toContainText('Last delivery OK (200)', {
      timeout: 10_000,
    });

    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'FAILED' }).click();
    await expect(page.getByText('No deliveries match these filters.')).toBeVisible();
  } finally {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
});
