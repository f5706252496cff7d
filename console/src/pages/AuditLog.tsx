/**
 * Settings → Audit log: the tenant's audit rows, newest first, filtered by actor, action, resource and date range
 * (all on the server), 25 a page, each row expandable to its full record (its changes, before and after).
 */
import { Alert, Button, Code, Group, Pagination, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { Empty, Loading, PageHeader, ProblemAlert, When } from '../components';
import { useConsole } from '../context';
import { AuditRecord } from './AuditRecord';
import { useMembers } from './Members';

const PAGE = 25;

export function AuditLogPage() {
  const { client, isAdmin, session } = useConsole();
  const [filters, setFilters] = useState({ actorId: '', action: '', resourceType: '', since: '', until: '' });
  const [applied, setApplied] = useState(filters);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  // Actors by name; someone no longer a member keeps the first characters of their user id.
  const members = useMembers();
  const nameOf = new Map((members.data ?? []).map((m) => [m.id, m.name]));
  const rows = useQuery({
    queryKey: ['audit', applied, page],
    enabled: isAdmin,
    queryFn: async () => {
      const result = await client.auditLogs.list({
        sort: '-occurredAt',
        limit: PAGE,
        offset: (page - 1) * PAGE,
        ...(applied.actorId ? { actorId: applied.actorId } : {}),
        ...(applied.action ? { action: applied.action } : {}),
        ...(applied.resourceType ? { resourceType: applied.resourceType } : {}),
        ...(applied.since ? { since: new Date(applied.since).toISOString() } : {}),
        ...(applied.until ? { until: new Date(applied.until).toISOString() } : {}),
      } as Parameters<typeof client.auditLogs.list>[0]);
      return { data: result.data, total: result.pagination.total };
    },
  });
  if (!isAdmin) {
    return (
      <>
        <PageHeader title="Audit log" />
        <Alert color="blue" title="Managed by admins">
          Your role ({session.user.role}) cannot read the audit log.
        </Alert>
      </>
    );
  }
  const field = (key: keyof typeof filters, label: string, type = 'text') => (
    <TextInput
      label={label}
      type={type}
      value={filters[key]}
      onChange={(e) => setFilters({ ...filters, [key]: e.currentTarget.value })}
      w={{ base: '100%', xs: type === 'text' ? 200 : 220 }}
    />
  );
  return (
    <>
      <PageHeader title="Audit log" />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(filters);
          setPage(1);
        }}
      >
        <Group align="end" gap="sm" mb="md" wrap="wrap">
          {field('action', 'Action')}
          {field('resourceType', 'Resource type')}
          {field('actorId', 'Actor (user id)')}
          {field('since', 'From', 'datetime-local')}
          {field('until', 'Until', 'datetime-local')}
          <Button type="submit">Filter</Button>
        </Group>
      </form>
      {rows.isPending ? (
        <Loading what="audit rows" />
      ) : rows.isError ? (
        <ProblemAlert error={rows.error} />
      ) : rows.data.data.length === 0 ? (
        <Empty>No audit rows match.</Empty>
      ) : (
        <>
          <Table.ScrollContainer minWidth={760}>
            <Table verticalSpacing="xs" aria-label="Audit rows">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Action</Table.Th>
                  <Table.Th>Resource</Table.Th>
                  <Table.Th>Actor</Table.Th>
                  <Table.Th>Record</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.data.data.map((r) => (
                  <Fragment key={r.id}>
                    <Table.Tr data-testid="audit-row">
                      <Table.Td>
                        <When at={r.occurredAt} />
                      </Table.Td>
                      <Table.Td>
                        <Code>{r.action}</Code>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          {r.resourceType} <Code>{r.resourceId.slice(0, 8)}</Code>
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          {r.actor.userId === session.user.id
                            ? 'You'
                            : r.actor.userId
                              ? (nameOf.get(r.actor.userId) ?? r.actor.userId.slice(0, 8))
                              : 'System'}
                          {r.actor.via ? ` via ${r.actor.via === 'api_key' ? 'API key' : 'console'}` : ''}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Button
                          size="compact-sm"
                          variant="default"
                          aria-expanded={open === r.id}
                          onClick={() => setOpen(open === r.id ? null : r.id)}
                        >
                          {open === r.id ? 'Hide' : 'Show'}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                    {open === r.id && (
                      <Table.Tr>
                        <Table.Td colSpan={5}>
                          <AuditRecord entry={r} />
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between" mt="md">
            <Text size="sm" c="dimmed">
              {rows.data.total} {rows.data.total === 1 ? 'row' : 'rows'}
            </Text>
            <Pagination
              total={Math.max(1, Math.ceil(rows.data.total / PAGE))}
              value={page}
              onChange={setPage}
              getControlProps={(c) => ({ 'aria-label': `${c} page` })}
              getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
            />
          </Group>
        </>
      )}
    </>
  );
}
