/**
 * Settings → General and Settings → Audit log: switch the optional model, then find that change and the earlier
 * journeys' actions (a key rolled, a delivery resent: 1-api-keys.spec.ts and 2-webhooks.spec.ts run before this file) in
 * the audit log viewer, filtered by action and expanded to the full record.
 */
import { expect, test } from '@playwright/test';
import { capture, signIn } from './support';

test('switch the optional model, then find it and the earlier journeys in the audit log', async ({
  page,
}) => {
  await signIn(page);
  await page.getByRole('link', { name: 'General' }).click();
  await expect(page.getByRole('combobox', { name: 'Time zone' })).toHaveValue('America/New_York');
  const model = page.getByRole('switch', { name: 'Optional model' });
  const before = await model.isChecked();
  await capture(page, 'general');
  await model.click({ force: true });
  await expect(model).toBeChecked({ checked: !before });

  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByTestId('audit-row').first()).toBeVisible();
  await capture(page, 'audit-log');
  const filterBy = async (action: string) => {
    await page.getByLabel('Action').fill(action);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.getByTestId('audit-row').first().getByText(action)).toBeVisible();
  };
  await filterBy('tenant.updated');
  await page.getByTestId('audit-row').first().getByRole('button', { name: 'Show' }).click();
  await expect(page.getByRole('table', { name: 'Changes' }).getByText('settings.llmEnabled')).toBeVisible();
  await filterBy('api_key.rolled');
  await filterBy('api_key.revoked');
  await filterBy('webhook.created');
  await filterBy('webhook.delivery_resent');
  await filterBy('auth.setup_completed');
});
