/**
 * Settings → Members end to end (docs/members.md): the owner invites a viewer from the page; the link is read from
 * the page and from the message the real SMTP server of ./server.ts received, and they are the same; the invitation
 * is accepted in a second browser context (a person without a session), whose console offers no key management
 * and whose direct API call to create a key answers 403; the owner's attempt to demote themselves, the last owner,
 * shows the API's 409; the owner changes the new member's role and removes them (their key refused at once); a
 * pending invitation is revoked, and its link, like the used one, then says it no longer works.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { capture, meStatus, server, signIn } from './support';
import { expectNoKeyManagement } from './viewer';

const INVITEE = { name: 'Vic Viewer', email: 'vic@example.com', password: 'vic chooses a long passphrase 7' };

/** The invitation link in the mail the SMTP server received for `to` (waits up to 10 s for it). */
async function mailedLink(to: string): Promise<string> {
  const dir = process.env.E2E_MAIL_DIR as string;
  const deadline = Date.now() + 10_000;
  for (;;) {
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      const mail = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { to: string[]; text?: string };
      const link = /https?:\/\/\S+#token=\S+/.exec(mail.text ?? '')?.[0];
      if (mail.to.includes(to) && link) return link;
    }
    if (Date.now() > deadline) throw new Error(`no invitation mailed to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Opens Settings → Members through the navigation. */
async function openMembers(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Members' }).click();
  await expect(page.getByRole('heading', { name: 'Members' })).toBeVisible();
}

/** Invites `email` with `role` from the page; returns the link the page shows once. */
async function invite(page: Page, email: string, role: string, shots = false): Promise<string> {
  await page.getByRole('button', { name: 'Invite member' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a member' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('radio', { name: role }).check();
  if (shots) await capture(page, 'member-invite');
  await dialog.getByRole('button', { name: 'Create invitation' }).click();
  const shown = page.getByRole('dialog', { name: 'Invitation link' });
  await expect(shown.getByText('Copy this link now')).toBeVisible();
  await expect(shown.getByText(`The link was also mailed to ${email}.`)).toBeVisible();
  await expect(shown.getByRole('button', { name: 'Copy link' })).toBeVisible();
  const link = (await shown.getByTestId('invitation-link').textContent()) as string;
  expect(link).toMatch(/\/console\/invitations\/accept#token=mi_/);
  if (shots) await capture(page, 'member-invitation-link');
  await shown.getByRole('button', { name: 'Done' }).click();
  return link;
}

/** A fresh browser context (no session) on `link`. */
async function stranger(browser: Browser, link: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  return page;
}

test('the owner invites a viewer, who joins in another browser; roles change, members and invitations go', async ({
  browser,
  page,
}) => {
  await signIn(page);
  await openMembers(page);
  const members = page.getByRole('table').first();
  await expect(members.getByRole('row', { name: /Dana Whitfield \(you\)/ })).toBeVisible();

  // Invite: the link on the page is the one mailed through the real SMTP server.
  const link = await invite(page, INVITEE.email, 'Viewer', true);
  expect(await mailedLink(INVITEE.email)).toBe(link);
  const pending = page.getByRole('table', { name: 'Pending invitations' });
  await expect(pending.getByRole('row', { name: new RegExp(INVITEE.email) })).toContainText('Viewer');

  // Accept in a second context: the tenant and role are shown, the token leaves the address bar at once, and the
  // server's password rule comes back as its problem detail.
  const guest = await stranger(browser, link);
  await expect(guest.getByRole('heading', { name: 'Accept invitation' })).toBeVisible();
  await expect(guest.getByText(/You are invited to join .+ as viewer/)).toBeVisible();
  await expect(guest.getByLabel('Email')).toHaveValue(INVITEE.email);
  expect(new URL(guest.url()).hash).toBe('');
  await capture(guest, 'accept-invitation');
  await guest.getByLabel('Your name').fill(INVITEE.name);
  await guest.getByLabel('New password').fill('too short');
  await guest.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(guest.getByRole('alert')).toContainText('must have at least 15 characters');
  await guest.getByLabel('New password').fill(INVITEE.password);
  await guest.getByRole('button', { name: 'Join and sign in' }).click();
  // As a viewer: no key management (and the API refuses it), no Members in the navigation nor on the page.
  await expectNoKeyManagement(guest);
  await expect(
    guest.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Members' }),
  ).toHaveCount(0);
  await guest.goto(`${server.baseUrl}/console/settings/members`);
  await expect(guest.getByText('Managed by admins')).toBeVisible();
  await expect(guest.getByRole('button', { name: 'Invite member' })).toHaveCount(0);

  // The owner sees the new member, signed in moments ago; the invitation is no longer pending.
  await page.reload();
  const row = members.getByRole('row', { name: new RegExp(INVITEE.name) });
  await expect(row).toContainText(INVITEE.email);
  await expect(row).toContainText(/seconds? ago|now/);
  await expect(page.getByText('No pending invitations')).toBeVisible();
  // A second invitation stays pending (revoked at the end).
  const revokedLink = await invite(page, 'pat@example.com', 'Admin');
  await expect(pending.getByRole('row', { name: /pat@example\.com/ })).toContainText('Admin');
  await capture(page, 'members');

  // The last owner cannot demote themselves: the API's 409 is shown as its title and detail.
  await members.getByLabel('Role of Dana Whitfield').click();
  await page.getByRole('option', { name: 'Admin' }).click();
  await page
    .getByRole('dialog', { name: 'Change your own role?' })
    .getByRole('button', { name: 'Change my role' })
    .click();
  await expect(page.getByRole('alert').filter({ hasText: 'last owner and cannot be demoted' })).toBeVisible();

  // Change the viewer's role to member; they sign in again and create a key with it.
  await members.getByLabel(`Role of ${INVITEE.name}`).click();
  await page.getByRole('option', { name: 'Member' }).click();
  await expect(page.getByText(`${INVITEE.name} is now member`)).toBeVisible();
  await expect(members.getByLabel(`Role of ${INVITEE.name}`)).toHaveValue('Member');
  await signIn(guest, INVITEE);
  const key = await guest.evaluate(async () => {
    const token = await (await fetch('/auth/token', { method: 'POST' })).json();
    const res = await fetch('/v1/api-keys', {
      method: 'POST',
      headers: { authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'vic script', scopes: ['read'] }),
    });
    return ((await res.json()) as { key: string }).key;
  });
  expect(await meStatus(key)).toBe(200);
  // The owner's API keys page names the key's owner.
  await page.goto(`${server.baseUrl}/console/settings/api-keys`);
  await expect(page.getByRole('row', { name: /vic script/ })).toContainText(INVITEE.name);
  await page.goto(`${server.baseUrl}/console/settings/members`);

  // Remove them: the confirmation says what goes; afterwards their key and their session are refused.
  await row.getByRole('button', { name: 'Remove' }).click();
  const confirm = page.getByRole('dialog', { name: `Remove ${INVITEE.name}?` });
  await expect(confirm).toContainText('Revokes their 1 active API key');
  await expect(confirm).toContainText('Ends all of their console sessions');
  await expect(confirm).toContainText('Takes away their sign-in');
  await capture(page, 'member-remove');
  await confirm.getByRole('button', { name: `Remove ${INVITEE.name}` }).click();
  await expect(members.getByRole('row', { name: new RegExp(INVITEE.name) })).toHaveCount(0);
  expect(await meStatus(key)).toBe(401);
  expect(
    (
      await guest.request.post(`${server.baseUrl}/auth/token`, { headers: { origin: server.baseUrl } })
    ).status(),
  ).toBe(401);
  await guest.context().close();

  // A pending invitation, revoked: it leaves the list, and its link says it no longer works.
  await pending
    .getByRole('row', { name: /pat@example\.com/ })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await page
    .getByRole('dialog', { name: 'Revoke the invitation?' })
    .getByRole('button', { name: 'Revoke invitation' })
    .click();
  await expect(page.getByText('No pending invitations')).toBeVisible();
  const reused = await stranger(browser, link);
  await expect(reused.getByRole('alert')).toContainText('This invitation link no longer works');
  await reused.context().close();
  const late = await stranger(browser, revokedLink);
  await expect(late.getByRole('alert')).toContainText('This invitation link no longer works');
  await capture(late, 'accept-invitation-invalid');
  await late.context().close();
});
