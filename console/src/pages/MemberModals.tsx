/**
 * The dialogs of Settings → Members: invite (email and a role the caller may give), the invitation link shown once
 * (with whether it was mailed), remove a member (spelling out what removal revokes, docs/members.md "Members and
 * roles") and revoke a pending invitation.
 */
import { Alert, Button, Code, CopyButton, Group, List, Radio, Stack, Text, TextInput } from '@mantine/core';
import type { Invitation, InvitationCreated, Member, UserRole } from '@meridian/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConsoleModal, ProblemAlert } from '../components';
import { useConsole } from '../context';
import { keyStatus } from './ApiKeys';
import { assignableRoles, ROLES, roleLabel } from './member-roles';

/** Invite: an email and one of the roles the caller may give (`POST /v1/invitations`). */
export function InviteModal(props: { onClose(): void; onInvited(invitation: InvitationCreated): void }) {
  const { client, session } = useConsole();
  const queryClient = useQueryClient();
  const roles = ROLES.filter((r) => assignableRoles(session.user.role).includes(r.role));
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<string>('member');
  const invite = useMutation({
    mutationFn: () => client.invitations.create({ email, role: role as UserRole }),
    onSuccess: async (invitation) => {
      await queryClient.invalidateQueries({ queryKey: ['invitations'] });
      props.onInvited(invitation);
    },
  });
  return (
    <ConsoleModal onClose={props.onClose} title="Invite a member" size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          invite.mutate();
        }}
      >
        <Stack>
          <ProblemAlert error={invite.error} />
          <TextInput
            label="Email"
            description="They choose their name and password when they accept. The link works once, for 7 days."
            type="email"
            required
            maxLength={254}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            data-autofocus
          />
          <Radio.Group label="Role" value={role} onChange={setRole} required>
            <Stack gap="xs" mt="xs">
              {roles.map((r) => (
                <Radio key={r.role} value={r.role} label={r.label} description={r.allows} />
              ))}
            </Stack>
          </Radio.Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={invite.isPending}>
              Create invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </ConsoleModal>
  );
}

/** The new invitation's link, shown once with a copy button, and whether the server mailed it (`emailSent`). */
export function LinkShownOnceModal({
  invitation,
  onClose,
}: {
  invitation: InvitationCreated;
  onClose(): void;
}) {
  return (
    <ConsoleModal onClose={onClose} title="Invitation link" size="lg">
      <Stack>
        <Alert color="red" title="Copy this link now">
          It is shown only once: Meridian keeps only a hash of it. Anyone with the link can join as{' '}
          {roleLabel(invitation.role).toLowerCase()} until it is used, revoked or expires.
        </Alert>
        {invitation.emailSent ? (
          <Alert color="blue" title="Mailed">
            The link was also mailed to {invitation.email}.
          </Alert>
        ) : (
          <Text size="sm">Send it to {invitation.email} yourself: this server did not mail it.</Text>
        )}
        <Code block data-testid="invitation-link" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {invitation.url}
        </Code>
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            For {invitation.email}, as {roleLabel(invitation.role).toLowerCase()}
          </Text>
          <Group>
            <CopyButton value={invitation.url}>
              {({ copied, copy }) => (
                <Button variant="light" color={copied ? 'teal' : undefined} onClick={copy}>
                  {copied ? 'Copied' : 'Copy link'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Group>
      </Stack>
    </ConsoleModal>
  );
}

/** Counts the member's live API keys, so the confirmation can say how many removal revokes. */
function useLiveKeyCount(memberId: string) {
  const { client } = useConsole();
  return useQuery({
    queryKey: ['api-keys', 'live-count', memberId],
    queryFn: async () => {
      let count = 0;
      for await (const key of client.apiKeys.list({ limit: 100 })) {
        if (key.userId === memberId && keyStatus(key) === 'active') count += 1;
      }
      return count;
    },
  });
}

/** Remove a member (`DELETE /v1/members/{id}`), after saying what the removal revokes (docs/members.md). */
export function RemoveMemberModal({ member, onClose }: { member: Member; onClose(): void }) {
  const { client, session } = useConsole();
  const queryClient = useQueryClient();
  const keys = useLiveKeyCount(member.id);
  const remove = useMutation({
    mutationFn: () => client.members.delete(member.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['members'] });
      await queryClient.invalidateQueries({ queryKey: ['api-keys'] });
      onClose();
    },
  });
  const keyText =
    keys.data === undefined
      ? 'every API key of theirs'
      : keys.data === 1
        ? 'their 1 active API key'
        : `their ${keys.data} active API keys`;
  return (
    <ConsoleModal onClose={onClose} title={`Remove ${member.name}?`} size="lg">
      <Stack>
        <ProblemAlert error={remove.error} />
        <Text>
          {member.name} ({member.email ?? 'no email'}, {roleLabel(member.role).toLowerCase()}) leaves{' '}
          {session.tenant.name}. At once, in one step:
        </Text>
        <List spacing="xs">
          <List.Item>
            <b>Revokes {keyText}</b>: scripts and integrations using them get 401 from their next request.
          </List.Item>
          <List.Item>
            <b>Ends all of their console sessions</b>, and the access tokens those sessions hold.
          </List.Item>
          <List.Item>
            <b>Takes away their sign-in</b>: their password and two-factor sign-in are deleted, so they cannot
            sign in again, by password or single sign-on.
          </List.Item>
        </List>
        <Text size="sm" c="dimmed">
          Their past changes stay in the audit log under their name. To let them back, invite them again.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
            Remove {member.name}
          </Button>
        </Group>
      </Stack>
    </ConsoleModal>
  );
}

/** Revoke a pending invitation (`DELETE /v1/invitations/{id}`): its link stops working. */
export function RevokeInvitationModal({ invitation, onClose }: { invitation: Invitation; onClose(): void }) {
  const { client } = useConsole();
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => client.invitations.delete(invitation.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['invitations'] });
      onClose();
    },
  });
  return (
    <ConsoleModal onClose={onClose} title="Revoke the invitation?">
      <Stack>
        <ProblemAlert error={revoke.error} />
        <Text>
          The invitation for <b>{invitation.email}</b> ({roleLabel(invitation.role).toLowerCase()}) stops
          working at once: its link will say it is no longer valid. You can invite the same address again.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" loading={revoke.isPending} onClick={() => revoke.mutate()}>
            Revoke invitation
          </Button>
        </Group>
      </Stack>
    </ConsoleModal>
  );
}

/** Asks before one changes one's own role: it ends one's sessions, and may not be undone by oneself. */
export function OwnRoleModal(props: { role: UserRole; onClose(): void; onConfirm(): void }) {
  const { session } = useConsole();
  return (
    <ConsoleModal onClose={props.onClose} title="Change your own role?">
      <Stack>
        <Text>
          You become {roleLabel(props.role).toLowerCase()} of {session.tenant.name}. Your console sessions end
          at once, this one included, and your API keys lose the scopes the new role lacks. You may not be
          able to change it back yourself.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button color="red" onClick={props.onConfirm}>
            Change my role
          </Button>
        </Group>
      </Stack>
    </ConsoleModal>
  );
}
