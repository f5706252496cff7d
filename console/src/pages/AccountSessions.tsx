/**
 * Account → Sessions (docs/accounts.md, "Sessions"): every browser the user is signed in on (`GET /auth/sessions`:
 * created, last seen, browser, address, this one marked), ending one (`DELETE /auth/sessions/{id}`) and signing out
 * everywhere (`DELETE /auth/sessions`), which ends this session too.
 */
import { Badge, Button, Group, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { authCall } from '../auth';
import { ConsoleModal, Empty, Loading, ProblemAlert, When } from '../components';
import { useConsole } from '../context';
import { Section } from './AccountSection';

/** A session as `GET /auth/sessions` lists it (spec `ConsoleSessionList`). */
interface ConsoleSession {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  userAgent: string | null;
  address: string | null;
  current: boolean;
}

const BROWSERS: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/OPR\//, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/Chrom(e|ium)\//, 'Chrome'],
  [/Safari\//, 'Safari'],
  [/curl\//, 'curl'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux|X11/, 'Linux'],
];

/** "Chrome on Linux" from a User-Agent (the full string is shown on hover). */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const browser = BROWSERS.find(([re]) => re.test(userAgent))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1];
  if (!browser) return userAgent.slice(0, 40);
  return system ? `${browser} on ${system}` : browser;
}

export function SessionsSection() {
  const { signOut } = useConsole();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const sessions = useQuery({
    queryKey: ['account-sessions'],
    queryFn: async () => (await authCall<{ data: ConsoleSession[] }>('GET', '/sessions')).data,
  });
  const revoke = useMutation({
    mutationFn: (id: string) => authCall<null>('DELETE', `/sessions/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['account-sessions'] }),
  });
  const everywhere = useMutation({
    mutationFn: async () => {
      await authCall<null>('DELETE', '/sessions');
      // The session has ended; this clears what the console holds and goes to the sign-in page.
      await signOut();
    },
  });
  return (
    <Section
      title="Sessions"
      description="The browsers and devices you are signed in on. API keys are not affected by signing out."
    >
      <ProblemAlert error={revoke.error} />
      {sessions.isPending && <Loading what="your sessions" />}
      <ProblemAlert error={sessions.error} />
      {sessions.data?.length === 0 && <Empty>No sessions.</Empty>}
      {sessions.data && sessions.data.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs" data-testid="sessions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Browser</Table.Th>
                <Table.Th>Address</Table.Th>
                <Table.Th>Signed in</Table.Th>
                <Table.Th>Last seen</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sessions.data.map((s) => (
                <Table.Tr key={s.id} data-testid="session-row">
                  <Table.Td>
                    <Tooltip label={s.userAgent ?? 'No User-Agent was sent'} multiline maw={360} withArrow>
                      <Text span size="sm" tabIndex={0}>
                        {deviceOf(s.userAgent)}
                      </Text>
                    </Tooltip>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{s.address ?? '—'}</Text>
                  </Table.Td>
                  <Table.Td>
                    <When at={s.createdAt} />
                  </Table.Td>
                  <Table.Td>
                    <When at={s.lastSeenAt} />
                  </Table.Td>
                  <Table.Td>
                    <When at={s.expiresAt} />
                  </Table.Td>
                  <Table.Td>
                    {s.current ? (
                      <Badge variant="dot" color="teal" style={{ whiteSpace: 'nowrap', overflow: 'visible' }}>
                        This session
                      </Badge>
                    ) : (
                      <Button
                        size="compact-sm"
                        variant="light"
                        color="red"
                        loading={revoke.isPending && revoke.variables === s.id}
                        onClick={() => revoke.mutate(s.id)}
                        aria-label={`Sign out ${deviceOf(s.userAgent)}, signed in ${new Date(s.createdAt).toLocaleString()}`}
                      >
                        Sign out
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group>
        <Button variant="light" color="red" onClick={() => setConfirming(true)}>
          Sign out everywhere
        </Button>
      </Group>
      {confirming && (
        <ConsoleModal onClose={() => setConfirming(false)} title="Sign out everywhere?">
          <Stack>
            <ProblemAlert error={everywhere.error} />
            <Text>
              Every session of yours ends, this one included: you will be taken to the sign-in page, and every
              other browser and device will have to sign in again. Your API keys keep working.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(false)}>
                Cancel
              </Button>
              <Button color="red" loading={everywhere.isPending} onClick={() => everywhere.mutate()}>
                Sign out everywhere
              </Button>
            </Group>
          </Stack>
        </ConsoleModal>
      )}
    </Section>
  );
}
