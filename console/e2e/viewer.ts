/**
 * What a viewer's console must show, shared by the journeys that sign a viewer in (4-viewer: created with the CLI;
 * 5-members: invited from the Members page): the API keys page offers no key management, and the API refuses a
 * key created with the viewer's own console token anyway (403; docs/accounts.md, "Roles").
 */
import { expect, type Page } from '@playwright/test';

/** Asserts, on a viewer's signed-in page, that keys cannot be created: no button, and the API answers 403. */
export async function expectNoKeyManagement(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await expect(page.getByText('Managed by admins')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create key' })).toHaveCount(0);
  const status = await page.evaluate(async () => {
    const token = await (await fetch('/auth/token', { method: 'POST' })).json();
    const res = await fetch('/v1/api-keys', {
      method: 'POST',
      headers: { authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'not allowed', scopes: ['read'] }),
    });
    return res.status;
  });
  expect(status).toBe(403);
}
