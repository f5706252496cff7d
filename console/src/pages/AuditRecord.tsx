/**
 * One audit row opened in Settings → Audit log: its changes as a table of fields with their value before and after
 * (`from` is null on create, `to` on delete: the spec's `FieldChange`), who made it and how, the request id, and the
 * full record as the API returns it. It stays in view, at most the screen's width, while the table scrolls sideways
 * on a small screen.
 */
import { Code, Stack, Table, Text } from '@mantine/core';
import type { AuditLogEntry } from '@meridian/sdk';

/** A field's value as the table shows it: JSON, or a dash for none. */
function shown(value: unknown): string {
  return value === null || value === undefined ? '—' : JSON.stringify(value);
}

const STICKY = { position: 'sticky', left: 0, maxWidth: 'calc(100vw - 4rem)' } as const;
const WRAP = { whiteSpace: 'pre-wrap', wordBreak: 'break-word' } as const;

export function AuditRecord({ entry }: { entry: AuditLogEntry }) {
  const changes = Object.entries(entry.changes) as [string, { from?: unknown; to?: unknown }][];
  return (
    <Stack gap="sm" data-testid="audit-record" style={STICKY}>
      <Text size="sm">
        {entry.action} on {entry.resourceType} <Code>{entry.resourceId}</Code>, by{' '}
        {entry.actor.userId ? <Code>{entry.actor.userId}</Code> : 'the system'}
        {entry.actor.apiKeyId && (
          <>
            {' '}
            with the API key <Code>{entry.actor.apiKeyId}</Code>
          </>
        )}
        {entry.requestId && (
          <>
            {' '}
            (request <Code>{entry.requestId}</Code>)
          </>
        )}
        .
      </Text>
      {changes.length === 0 ? (
        <Text size="sm" c="dimmed">
          No field changes recorded.
        </Text>
      ) : (
        <Table withTableBorder aria-label="Changes" layout="fixed">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Field</Table.Th>
              <Table.Th>Before</Table.Th>
              <Table.Th>After</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {changes.map(([field, change]) => (
              <Table.Tr key={field}>
                <Table.Td style={WRAP}>
                  <Code>{field}</Code>
                </Table.Td>
                <Table.Td style={WRAP}>{shown(change.from)}</Table.Td>
                <Table.Td style={WRAP}>{shown(change.to)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <details>
        <summary>
          <Text span size="sm">
            The full record
          </Text>
        </summary>
        <Code block style={WRAP}>
          {JSON.stringify(entry, null, 2)}
        </Code>
      </details>
    </Stack>
  );
}
