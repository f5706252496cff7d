/**
 * One endpoint's delivery log: each delivery's event, status, attempts (time, response status, duration, error, the
 * first bytes of the response body: ./DeliveryAttempt.tsx), next retry, filterable by status and event kind (both on
 * the server: `status`, `event`); resend a delivery
 * (`POST /v1/webhooks/{id}/deliveries/{deliveryId}/resend`). Refreshes every 2 s while a delivery is pending.
 */
import { Badge, Button, Group, Select, Stack, Table, Text } from '@mantine/core';
import type { WebhookDelivery, WebhookDeliveryStatus, WebhookEventType } from '@meridian/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Empty, Loading, ProblemAlert, When } from '../components';
import { useConsole } from '../context';
import { AttemptLine } from './DeliveryAttempt';
import { EVENT_KINDS } from './webhook-events';

const STATUS_COLOR = { PENDING: 'yellow', SUCCEEDED: 'green', FAILED: 'red' } as const;

/** Consecutive failed attempts at the end of the log (newest first), the endpoint's health at a glance. */
export function failuresInARow(deliveries: WebhookDelivery[]): number {
  let n = 0;
  for (const d of deliveries) {
    for (const a of [...d.attempts].reverse()) {
      if (a.statusCode !== null && a.statusCode < 300) return n;
      n++;
    }
  }
  return n;
}

export function DeliveryLog({ webhookId }: { webhookId: string }) {
  const { client } = useConsole();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<string | null>(null);
  const [event, setEvent] = useState<string | null>(null);
  const deliveries = useQuery({
    queryKey: ['webhooks', webhookId, 'deliveries', status, event],
    queryFn: async () =>
      [
        ...(
          await client.webhooks.deliveries.list(webhookId, {
            limit: 100,
            ...(status ? { status: [status as WebhookDeliveryStatus] } : {}),
            ...(event ? { event: [event as WebhookEventType] } : {}),
          })
        ).data,
      ].reverse(),
    refetchInterval: (q) => (q.state.data?.some((d) => d.status === 'PENDING') ? 2000 : false),
  });
  const resend = useMutation({
    mutationFn: (id: string) => client.webhooks.deliveries.resend(webhookId, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhooks', webhookId, 'deliveries'] }),
  });
  const shown = deliveries.data ?? [];
  return (
    <Stack gap="sm">
      <Group gap="sm" wrap="wrap">
        <Select
          label="Status"
          placeholder="Any status"
          clearable
          data={['PENDING', 'SUCCEEDED', 'FAILED']}
          value={status}
          onChange={setStatus}
          w={170}
        />
        <Select
          label="Event"
          placeholder="Any event"
          clearable
          data={EVENT_KINDS.map((k) => k.kind)}
          value={event}
          onChange={setEvent}
          w={240}
        />
        {deliveries.data && !status && !event && (
          <Text size="sm" mt="lg" data-testid="health">
            {failuresInARow(deliveries.data)} failed attempts in a row
          </Text>
        )}
      </Group>
      <ProblemAlert error={resend.error} />
      {deliveries.isPending ? (
        <Loading what="deliveries" />
      ) : deliveries.isError ? (
        <ProblemAlert error={deliveries.error} />
      ) : shown.length === 0 ? (
        <Empty>No deliveries{status || event ? ' match these filters' : ' yet: send a test event'}.</Empty>
      ) : (
        <Table.ScrollContainer minWidth={820}>
          <Table verticalSpacing="xs" aria-label="Deliveries">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Event</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Attempts</Table.Th>
                <Table.Th>Next retry</Table.Th>
                <Table.Th>Queued</Table.Th>
                <Table.Th>Action</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((d) => (
                <Table.Tr key={d.id} data-testid="delivery">
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {d.event}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLOR[d.status]} variant="dot" style={{ overflow: 'visible' }}>
                      {d.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={2}>
                      {d.attempts.length === 0 && <Text size="sm">None yet</Text>}
                      {d.attempts.map((a) => (
                        <AttemptLine key={a.attemptedAt} attempt={a} />
                      ))}
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    <When at={d.nextAttemptAt} />
                  </Table.Td>
                  <Table.Td>
                    <When at={d.createdAt} />
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="compact-sm"
                      variant="default"
                      loading={resend.isPending && resend.variables === d.id}
                      onClick={() => resend.mutate(d.id)}
                    >
                      Resend
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
