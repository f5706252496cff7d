/**
 * Sign-in with email and password (`POST /auth/sign-in`); a second factor continues on the two-factor page, and a
 * sign-in the tenant's `requireTwoFactor` holds back on the enrolment page.
 */
import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { authCall, type SignInResult } from '../auth';
import { ProblemAlert } from '../components';
import { navigate } from '../router';
import { AuthCard } from './AuthCard';

export function SignInPage() {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useMutation({
    mutationFn: () => authCall<SignInResult>('POST', '/sign-in', { email, password }),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: ['session'] });
      if (result.status === 'signed_in') navigate('/settings/api-keys');
      else if (result.status === 'two_factor_required') navigate('/two-factor');
      else navigate('/two-factor/enrol');
    },
  });
  return (
    <AuthCard title="Sign in">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          signIn.mutate();
        }}
      >
        <Stack>
          <ProblemAlert error={signIn.error} />
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <Button type="submit" loading={signIn.isPending}>
            Sign in
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
