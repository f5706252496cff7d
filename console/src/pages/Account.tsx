/**
 * Account: the signed-in user's own name (`PATCH /auth/account`), password (`POST /auth/password`), second factor
 * (./AccountTwoFactor.tsx) and sessions (./AccountSessions.tsx); docs/accounts.md. Every call goes to `/auth/*`
 * with the session cookie: none of this is part of `/v1`.
 */
import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { authCall, type ConsoleUser } from '../auth';
import { PageHeader, ProblemAlert } from '../components';
import { useConsole } from '../context';
import { Section } from './AccountSection';
import { SessionsSection } from './AccountSessions';
import { TwoFactorSection } from './AccountTwoFactor';

export function AccountPage() {
  const { session } = useConsole();
  return (
    <>
      <PageHeader title="Account" />
      <Stack>
        <Text c="dimmed">
          Signed in as {session.user.email ?? session.user.name} ({session.user.role}) in{' '}
          {session.tenant.name}.
        </Text>
        <NameSection />
        <PasswordSection />
        <TwoFactorSection />
        <SessionsSection />
      </Stack>
    </>
  );
}

function NameSection() {
  const { session } = useConsole();
  const queryClient = useQueryClient();
  const [name, setName] = useState(session.user.name);
  const save = useMutation({
    mutationFn: () => authCall<ConsoleUser>('PATCH', '/account', { name }),
    onSuccess: async (user) => {
      setName(user.name);
      await queryClient.invalidateQueries({ queryKey: ['session'] });
    },
  });
  return (
    <Section title="Name" description="How people see you in Meridian: members, keys and the audit log.">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Stack gap="sm">
          <ProblemAlert error={save.error} />
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label="Your name"
              required
              maxLength={200}
              value={name}
              onChange={(e) => {
                setName(e.currentTarget.value);
                save.reset();
              }}
              style={{ flex: '1 1 16rem' }}
            />
            <Button type="submit" loading={save.isPending} disabled={name.trim() === session.user.name}>
              Save name
            </Button>
          </Group>
          {save.isSuccess && (
            <Text size="sm" c="teal" role="status">
              Saved.
            </Text>
          )}
        </Stack>
      </form>
    </Section>
  );
}

function PasswordSection() {
  const { session } = useConsole();
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const change = useMutation({
    mutationFn: () => authCall<null>('POST', '/password', { currentPassword: current, newPassword: next }),
    onSuccess: async () => {
      setCurrent('');
      setNext('');
      await queryClient.invalidateQueries({ queryKey: ['account-sessions'] });
    },
  });
  const min = session.user.twoFactorEnabled ? 8 : 15;
  return (
    <Section
      title="Password"
      description="Changing it signs you out on every other browser and device; this session stays signed in."
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          change.mutate();
        }}
      >
        <Stack gap="sm" maw={480}>
          <ProblemAlert error={change.error} />
          {change.isSuccess && (
            <Alert color="teal" title="Password changed" role="status">
              Your other sessions were signed out.
            </Alert>
          )}
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
          />
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            required
            description={`${min} to 128 characters${session.user.twoFactorEnabled ? ' (two-factor sign-in is on)' : ' (8 once two-factor sign-in is on)'}; any characters; common passwords are refused.`}
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
          />
          <Group>
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
