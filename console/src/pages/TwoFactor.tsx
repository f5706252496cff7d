/**
 * The second step of sign-in (`POST /auth/sign-in/two-factor`): a 6-digit code from the authenticator app, or a
 * recovery code.
 */
import { Anchor, Button, PinInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { authCall, type SignInResult } from '../auth';
import { ProblemAlert } from '../components';
import { navigate } from '../router';
import { AuthCard } from './AuthCard';

export function TwoFactorPage() {
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState(false);
  const verify = useMutation({
    mutationFn: () =>
      authCall<SignInResult>('POST', '/sign-in/two-factor', recovery ? { recoveryCode: code } : { code }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['session'] });
      navigate('/settings/api-keys');
    },
  });
  return (
    <AuthCard title="Two-factor sign-in">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          verify.mutate();
        }}
      >
        <Stack>
          <ProblemAlert error={verify.error} />
          {recovery ? (
            <TextInput
              label="Recovery code"
              required
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
            />
          ) : (
            <>
              <Text size="sm" id="code-label">
                Enter the 6-digit code from your authenticator app.
              </Text>
              <PinInput
                length={6}
                type="number"
                oneTimeCode
                value={code}
                onChange={setCode}
                aria-labelledby="code-label"
                ariaLabel="Authentication code"
              />
            </>
          )}
          <Button type="submit" loading={verify.isPending}>
            Verify
          </Button>
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => {
              setRecovery(!recovery);
              setCode('');
            }}
          >
            {recovery ? 'Use an authenticator code' : 'Use a recovery code instead'}
          </Anchor>
        </Stack>
      </form>
    </AuthCard>
  );
}
