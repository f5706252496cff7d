/**
 * Settings → Webhooks: the tenant's endpoints with their state (enabled, or disabled and why) and health
 * (./WebhookHealth.tsx); add and edit;
 * reveal the signing secret on demand (./WebhookSecret.tsx) and rotate it (the old one keeps signing for 24 hours,
 * the time shown); send a test event; each
 * endpoint's delivery log (./Deliveries.tsx). Takes the `admin` scope; other roles are told so.
 */
import { Alert, Badge, Button, Group, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import type { WebhookEndpoint } from '@meridian/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Empty, Loading, PageHeader, ProblemAlert } from '../components';
import { useConsole } from '../context';
import { DeliveryLog } from './Deliveries';
import { EndpointHealth } from './WebhookHealth';
import { EndpointModal, RotateModal, WebhookSecretModal } from './WebhookModals';
import { WebhookSecret } from './WebhookSecret';

export function WebhooksPage() {
  const { client, isAdmin, session } = useConsole();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null);
  const [secret, setSecret] = useState<{ secret: string; oldStopsAt: string | null } | null>(null);
  const [rotating, setRotating] = useState<WebhookEndpoint | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const endpoints = useQuery({
    queryKey: ['webhooks'],
    queryFn: async () => (await client.webhooks.list({ limit: 100 })).data,
    enabled: isAdmin,
    // Each endpoint's health changes as deliveries settle in the background.
    refetchInterval: 5_000,
  });
  const test = useMutation({
    mutationFn: (id: string) => client.webhooks.test(id),
    onSuccess: (_d, id) => queryClient.invalidateQueries({ queryKey: ['webhooks', id, 'deliveries'] }),
  });
  const selected = endpoints.data?.find((w) => w.id === selectedId) ?? null;

  if (!isAdmin) {
    return (
      <>
        <PageHeader title="Webhooks" />
        <Alert color="blue" title="Managed by admins">
          Your role ({session.user.role}) cannot see or change webhook endpoints.
        </Alert>
      </>
    );
  }
  return (
    <>
      <PageHeader title="Webhooks">
        <Button onClick={() => setEditing('new')}>Add endpoint</Button>
      </PageHeader>
      <Text c="dimmed" size="sm" mb="md">
        Meridian sends signed events (Standard Webhooks) to these URLs, retrying failures for up to a day and
        a half.
      </Text>
      {endpoints.isPending ? (
        <Loading what="webhook endpoints" />
      ) : endpoints.isError ? (
        <ProblemAlert error={endpoints.error} />
      ) : endpoints.data.length === 0 ? (
        <Empty>No endpoints yet. Add one to receive events.</Empty>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table verticalSpacing="sm" highlightOnHover aria-label="Endpoints">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>URL</Table.Th>
                <Table.Th>Events</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Health</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {endpoints.data.map((w) => (
                <Table.Tr key={w.id}>
                  <Table.Td>
                    <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                      {w.url}
                    </Text>
                    {w.description && (
                      <Text size="xs" c="dimmed">
                        {w.description}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{w.events.includes('*') ? 'All events' : w.events.join(', ')}</Text>
                  </Table.Td>
                  <Table.Td>
                    {w.enabled ? (
                      <Badge color="green" variant="dot" style={{ overflow: 'visible' }}>
                        Enabled
                      </Badge>
                    ) : (
                      <Tooltip label={w.disabledReason ?? 'Disabled by an admin'}>
                        <Badge color="red" variant="dot" tabIndex={0} style={{ overflow: 'visible' }}>
                          Disabled
                        </Badge>
                      </Tooltip>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <EndpointHealth health={w.health} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button size="compact-sm" variant="default" onClick={() => setSelectedId(w.id)}>
                        Deliveries
                      </Button>
                      <Button size="compact-sm" variant="default" onClick={() => setEditing(w)}>
                        Edit
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {selected && (
        <Paper withBorder p="md" mt="lg" component="section" aria-label="Endpoint details">
          <Stack gap="sm">
            <Group justify="space-between" wrap="wrap">
              <Title order={2} size="h4" style={{ wordBreak: 'break-all' }}>
                {selected.url}
              </Title>
              <Group gap="xs">
                <Button
                  size="compact-md"
                  onClick={() => test.mutate(selected.id)}
                  loading={test.isPending}
                  disabled={!selected.enabled}
                >
                  Send test event
                </Button>
                <Button size="compact-md" variant="default" onClick={() => setRotating(selected)}>
                  Rotate secret
                </Button>
              </Group>
            </Group>
            {!selected.enabled && (
              <Alert color="red" title="Disabled">
                {selected.disabledReason ?? 'Disabled by an admin.'} Edit the endpoint and enable it to
                resume.
              </Alert>
            )}
            <WebhookSecret key={selected.id} webhookId={selected.id} />
            <ProblemAlert error={test.error} />
            <DeliveryLog webhookId={selected.id} />
          </Stack>
        </Paper>
      )}
      {editing && (
        <EndpointModal
          endpoint={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onCreated={(s) => {
            setEditing(null);
            setSecret({ secret: s, oldStopsAt: null });
          }}
        />
      )}
      {rotating && (
        <RotateModal
          endpoint={rotating}
          onClose={() => setRotating(null)}
          onRotated={(s) => {
            setRotating(null);
            setSecret({ secret: s, oldStopsAt: new Date(Date.now() + 24 * 3_600_000).toISOString() });
            void queryClient.invalidateQueries({ queryKey: ['webhooks'] });
          }}
        />
      )}
      {secret && <WebhookSecretModal {...secret} onClose={() => setSecret(null)} />}
    </>
  );
}
