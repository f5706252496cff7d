/**
 * Settings → Members: the tenant's members (name, email, role, last sign-in, joined), each role changed in place
 * and each member removable after a confirmation that spells out what removal revokes; invitations (the link shown
 * once, and mailed when the server has SMTP) and the pending ones with their expiry, each revocable. Every call
 * takes the `admin` scope (docs/members.md): owners and admins see the page; an admin is offered only members
 * below owner and roles up to admin. Changing one's own role asks first (it ends one's sessions; the last owner
 * gets the API's 409 shown); nobody is offered to remove themselves (the API refuses it).
 */
import {
  Alert,
  Badge,
  Button,
  Group,
  Select,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import type { Invitation, InvitationCreated, Member, UserRole } from '@meridian/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Empty, Loading, PageHeader, ProblemAlert, When } from '../components';
import { useConsole } from '../context';
import {
  InviteModal,
  LinkShownOnceModal,
  OwnRoleModal,
  RemoveMemberModal,
  RevokeInvitationModal,
} from './MemberModals';
import { assignableRoles, mayManage, ROLES, roleLabel } from './member-roles';

/** Every item of a paginated list, page after page. */
async function all<T>(pages: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of pages) items.push(item);
  return items;
}

/**
 * The tenant's members, every page of them (`GET /v1/members`, admin scope: fetched only for owners and admins).
 * Shared by the Members page and the API keys page, which names each key's owner with it.
 */
export function useMembers() {
  const { client, isAdmin } = useConsole();
  return useQuery({
    queryKey: ['members'],
    queryFn: () => all(client.members.list({ limit: 100 })),
    enabled: isAdmin,
  });
}

/** Settings → Members (`/console/settings/members`). */
export function MembersPage() {
  const { client, isAdmin, session } = useConsole();
  const queryClient = useQueryClient();
  const [inviting, setInviting] = useState(false);
  const [created, setCreated] = useState<InvitationCreated | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const [ownRole, setOwnRole] = useState<{ member: Member; role: UserRole } | null>(null);
  const [changed, setChanged] = useState<Member | null>(null);
  const callerRole = session.user.role;
  const members = useMembers();
  const invitations = useQuery({
    queryKey: ['invitations'],
    queryFn: () => all(client.invitations.list({ limit: 100 })),
    enabled: isAdmin,
  });
  const changeRole = useMutation({
    onMutate: () => setChanged(null),
    mutationFn: ({ member, role }: { member: Member; role: UserRole }) =>
      client.members.update(member.id, { role }),
    onSuccess: async (member) => {
      // One's own role change ends one's sessions: the session is read again, and the console asks to sign in.
      if (member.id === session.user.id) return queryClient.invalidateQueries({ queryKey: ['session'] });
      await queryClient.invalidateQueries({ queryKey: ['members'] });
      setChanged(member);
    },
  });
  const names = new Map((members.data ?? []).map((m) => [m.id, m.name]));

  if (!isAdmin) {
    return (
      <>
        <PageHeader title="Members" />
        <Alert color="blue" title="Managed by admins">
          Your role ({callerRole}) cannot see or change the members of this organisation. Ask an admin or the
          owner.
        </Alert>
      </>
    );
  }
  return (
    <>
      <PageHeader title="Members">
        <Button onClick={() => setInviting(true)}>Invite member</Button>
      </PageHeader>
      <Text c="dimmed" size="sm" mb="md">
        The people of {session.tenant.name} and their roles. A role decides what their console and their API
        keys may do.
      </Text>
      {changeRole.isError && (
        <Stack mb="md">
          <ProblemAlert error={changeRole.error} />
        </Stack>
      )}
      {changed && (
        <Alert
          color="blue"
          mb="md"
          title={`${changed.name} is now ${roleLabel(changed.role).toLowerCase()}`}
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setChanged(null)}
        >
          Their console sessions ended; their API keys carry the new role’s scopes from their next request.
        </Alert>
      )}
      {members.isPending ? (
        <Loading what="members" />
      ) : members.isError ? (
        <ProblemAlert error={members.error} />
      ) : members.data.length === 0 ? (
        <Empty>No members yet.</Empty>
      ) : (
        <Table.ScrollContainer minWidth={820}>
          <Table striped highlightOnHover verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Last sign-in</Table.Th>
                <Table.Th>Joined</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {members.data.map((member) => {
                const self = member.id === session.user.id;
                const manageable = mayManage(callerRole, member.role);
                return (
                  <Table.Tr key={member.id}>
                    <Table.Td fw={500}>
                      {member.name}
                      {self && (
                        <Text span c="dimmed" size="sm">
                          {' '}
                          (you)
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{member.email ?? '—'}</Table.Td>
                    <Table.Td>
                      {manageable ? (
                        <Select
                          aria-label={`Role of ${member.name}`}
                          size="xs"
                          w={130}
                          allowDeselect={false}
                          data={ROLES.filter((r) => assignableRoles(callerRole).includes(r.role)).map(
                            (r) => ({
                              value: r.role,
                              label: r.label,
                            }),
                          )}
                          value={member.role}
                          disabled={changeRole.isPending}
                          onChange={(role) => {
                            if (!role || role === member.role) return;
                            if (self) setOwnRole({ member, role: role as UserRole });
                            else changeRole.mutate({ member, role: role as UserRole });
                          }}
                        />
                      ) : (
                        <Badge variant="light">{roleLabel(member.role)}</Badge>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <When at={member.lastSignedInAt} never="Never" />
                    </Table.Td>
                    <Table.Td>
                      <When at={member.createdAt} />
                    </Table.Td>
                    <Table.Td>
                      {manageable && !self && (
                        <Button
                          size="compact-sm"
                          variant="light"
                          color="red"
                          onClick={() => setRemoving(member)}
                        >
                          Remove
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      <Title order={2} size="h4" mt="xl" mb="xs">
        Pending invitations
      </Title>
      {invitations.isPending ? (
        <Loading what="invitations" />
      ) : invitations.isError ? (
        <ProblemAlert error={invitations.error} />
      ) : invitations.data.length === 0 ? (
        <Empty>No pending invitations. Accepted, revoked and expired ones are not listed.</Empty>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped verticalSpacing="sm" aria-label="Pending invitations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Email</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Invited by</Table.Th>
                <Table.Th>Sent</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invitations.data.map((invitation) => (
                <Table.Tr key={invitation.id}>
                  <Table.Td fw={500}>{invitation.email}</Table.Td>
                  <Table.Td>
                    <Badge variant="light">{roleLabel(invitation.role)}</Badge>
                  </Table.Td>
                  <Table.Td>
                    {invitation.invitedBy === session.user.id
                      ? 'You'
                      : ((invitation.invitedBy && names.get(invitation.invitedBy)) ?? '—')}
                  </Table.Td>
                  <Table.Td>
                    <When at={invitation.createdAt} />
                  </Table.Td>
                  <Table.Td>
                    <When at={invitation.expiresAt} />
                  </Table.Td>
                  <Table.Td>
                    <Group justify="flex-end">
                      <Button
                        size="compact-sm"
                        variant="light"
                        color="red"
                        onClick={() => setRevoking(invitation)}
                      >
                        Revoke
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      {inviting && (
        <InviteModal
          onClose={() => setInviting(false)}
          onInvited={(invitation) => {
            setInviting(false);
            setCreated(invitation);
          }}
        />
      )}
      {created && <LinkShownOnceModal invitation={created} onClose={() => setCreated(null)} />}
      {ownRole && (
        <OwnRoleModal
          role={ownRole.role}
          onClose={() => setOwnRole(null)}
          onConfirm={() => {
            changeRole.mutate(ownRole);
            setOwnRole(null);
          }}
        />
      )}
      {removing && <RemoveMemberModal member={removing} onClose={() => setRemoving(null)} />}
      {revoking && <RevokeInvitationModal invitation={revoking} onClose={() => setRevoking(null)} />}
    </>
  );
}
