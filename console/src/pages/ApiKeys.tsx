/**
 * Settings → API keys: the tenant's keys (name, prefix, owner, scopes, created, last used, expiry, status); create
 * with scopes capped by the role and an expiry; the new key shown once; revoke after a confirmation naming the key;
 * roll with a grace period (`POST /v1/api-keys/{id}/roll`). Listing and managing keys takes the `write` scope:
 * owners and admins see every key of the tenant, a member only their own (docs/accounts.md, "Roles"); a viewer is
 * told so and offered nothing.
 */
import { Alert, Badge, Button, Code, Group, Table, Text, VisuallyHidden } from '@mantine/core';
import type { ApiKey, ApiKeyWithSecret } from '@meridian/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Empty, Loading, PageHeader, ProblemAlert, When } from '../components';
import { useConsole } from '../context';
import { CreateKeyModal, RevokeKeyModal, RollKeyModal, SecretModal } from './ApiKeyModals';
import { useMembers } from './Members';

/** A key's status as the list shows it. */
export function keyStatus(key: ApiKey, now = Date.now()): 'active' | 'expired' | 'revoked' {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && Date.parse(key.expiresAt) <= now) return 'expired';
  return 'active';
}

const STATUS_COLOR = { active: 'green', expired: 'gray', revoked: 'red' } as const;

export function ApiKeysPage() {
  const { client, canWrite, session } = useConsole();
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ key: ApiKeyWithSecret; rolled: boolean } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [rolling, setRolling] = useState<ApiKey | null>(null);
  const keys = useQuery({
    queryKey: ['api-keys'],
    queryFn: async () => (await client.apiKeys.list({ limit: 100 })).data,
    enabled: canWrite,
  });
  // Owners and admins see every key: each owner by name (a member sees only their own keys: "You").
  const members = useMembers();
  const nameOf = new Map((members.data ?? []).map((m) => [m.id, m.name]));

  return (
    <>
      <PageHeader title="API keys">
        {canWrite && <Button onClick={() => setCreating(true)}>Create key</Button>}
      </PageHeader>
      <Text c="dimmed" size="sm" mb="md">
        Keys let scripts and integrations call the Meridian API. Each key is shown once, when it is created.
      </Text>
      {!canWrite ? (
        <Alert color="blue" title="Managed by admins">
          Your role ({session.user.role}) cannot list or create API keys. Ask an admin or the owner of this
          organisation.
        </Alert>
      ) : keys.isPending ? (
        <Loading what="API keys" />
      ) : keys.isError ? (
        <ProblemAlert error={keys.error} />
      ) : keys.data.length === 0 ? (
        <Empty>No API keys yet. Create one to call the API from a script.</Empty>
      ) : (
        <Table.ScrollContainer minWidth={1040}>
          <Table striped highlightOnHover verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Key</Table.Th>
                <Table.Th>Owner</Table.Th>
                <Table.Th>Scopes</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {[...keys.data].reverse().map((key) => {
                const status = keyStatus(key);
                return (
                  <Table.Tr key={key.id}>
                    <Table.Td fw={500}>{key.name}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <Code>{key.prefix}…</Code>
                    </Table.Td>
                    <Table.Td>
                      {key.userId === session.user.id
                        ? 'You'
                        : (nameOf.get(key.userId) ?? <Code>{key.userId.slice(0, 8)}</Code>)}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {key.scopes.map((s) => (
                          <Badge key={s} variant="light" size="sm">
                            {s}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <When at={key.createdAt} />
                    </Table.Td>
                    <Table.Td>
                      <When at={key.lastUsedAt} never="Never" />
                    </Table.Td>
                    <Table.Td>
                      <When at={key.expiresAt} never="Never" />
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <Badge color={STATUS_COLOR[status]} variant="dot" style={{ overflow: 'visible' }}>
                        {status}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {status === 'active' && (
                        <Group gap="xs" wrap="nowrap">
                          <Button size="compact-sm" variant="default" onClick={() => setRolling(key)}>
                            Roll
                          </Button>
                          <Button
                            size="compact-sm"
                            variant="light"
                            color="red"
                            onClick={() => setRevoking(key)}
                          >
                            Revoke
                          </Button>
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {creating && (
        <CreateKeyModal
          onClose={() => setCreating(false)}
          onCreated={(key) => {
            setCreating(false);
            setSecret({ key, rolled: false });
          }}
        />
      )}
      {rolling && (
        <RollKeyModal
          apiKey={rolling}
          onClose={() => setRolling(null)}
          onRolled={(key) => {
            setRolling(null);
            setSecret({ key, rolled: true });
          }}
        />
      )}
      {revoking && <RevokeKeyModal apiKey={revoking} onClose={() => setRevoking(null)} />}
      {secret && <SecretModal apiKey={secret.key} rolled={secret.rolled} onClose={() => setSecret(null)} />}
    </>
  );
}
