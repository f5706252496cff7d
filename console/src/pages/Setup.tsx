/**
 * First-run setup from the one-time link printed by `npm start` (`/console/setup#token=…`, docs/accounts.md
 * "First run"): the owner chooses a name, an email and a password (`POST /auth/setup`) and is signed in. The token
 * is taken from the fragment and removed from the address bar at once.
 */
import { Alert, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { authCall, type SignInResult } from '../auth';
import { ProblemAlert } from '../components';
import { navigate } from '../router';
import { AuthCard } from './AuthCard';

/** The link's token, read once (the fragment is then cleared so it stays out of history and screenshots). */
function takeToken(): string {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
  if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  return token;
}

export function SetupPage() {
  const queryClient = useQueryClient();
  const [token] = useState(takeToken);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const setup = useMutation({
    mutationFn: () =>
      authCall<SignInResult>('POST', '/setup', {
        token,
        password,
        ...(email ? { email } : {}),
        ...(name ? { name } : {}),
      }),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: ['session'] });
      navigate(result.status === 'two_factor_required' ? '/two-factor' : '/settings/api-keys');
    },
  });
  return (
    <AuthCard title="Set up your account">
      {token ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setup.mutate();
          }}
        >
          <Stack>
            <Text size="sm" c="dimmed">
              Choose how you sign in. The password needs at least 15 characters; a long passphrase is best.
            </Text>
            <ProblemAlert error={setup.error} />
            <TextInput
              label="Your name"
              autoComplete="name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
            />
            <TextInput
              label="Email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
            />
            <PasswordInput
              label="New password"
              autoComplete="new-password"
              required
              minLength={15}
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <Button type="submit" loading={setup.isPending}>
              Set up and sign in
            </Button>
          </Stack>
        </form>
      ) : (
        <Alert color="red" title="This link has no token">
          Open the whole setup link printed by the server, or print a new one with{' '}
          <code>npm run cli -- users setup-link</code>.
        </Alert>
      )}
    </AuthCard>
  );
}
