/**
 * Two-factor enrolment (docs/accounts.md, "Two-factor sign-in"), shared by the account page and the sign-in that a
 * tenant's `requireTwoFactor` holds back: a new secret as a QR code and as text (`POST /auth/two-factor/enrolment`),
 * confirmed with the app's first code (`…/confirm`), then the ten recovery codes shown once with copy and download.
 */
import {
  Alert,
  Box,
  Button,
  Code,
  CopyButton,
  Group,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { authCall } from '../auth';
import { Loading, ProblemAlert } from '../components';
import { navigate } from '../router';
import { AuthCard } from './AuthCard';

/** Spec `ConsoleTwoFactorEnrolment`. */
interface Enrolment {
  secret: string;
  otpauthUri: string;
  qrCode: string;
}

/** Starts enrolment when shown; calls `onEnrolled` with the recovery codes once a first code confirms it. */
export function EnrolmentForm(props: { onEnrolled(codes: string[]): void; onCancel?: () => void }) {
  const [code, setCode] = useState('');
  const begin = useMutation({ mutationFn: () => authCall<Enrolment>('POST', '/two-factor/enrolment') });
  const confirm = useMutation({
    mutationFn: () =>
      authCall<{ recoveryCodes: string[] }>('POST', '/two-factor/enrolment/confirm', { code }),
    onSuccess: (r) => props.onEnrolled(r.recoveryCodes),
  });
  const start = begin.mutate;
  useEffect(() => start(), [start]);
  const e = begin.data;
  return (
    <>
      {begin.isPending && <Loading what="a new secret" />}
      <ProblemAlert error={begin.error} />
      {e && (
        <form
          onSubmit={(ev) => {
            ev.preventDefault();
            confirm.mutate();
          }}
        >
          <Stack>
            <Text size="sm">
              1. Scan this QR code with an authenticator app (1Password, Google Authenticator, Authy, …).
            </Text>
            <Box bg="white" p="xs" w={216} style={{ borderRadius: 4 }}>
              <img
                src={e.qrCode}
                alt="QR code to scan with your authenticator app"
                width={200}
                height={200}
              />
            </Box>
            <Text size="sm">Or type this secret into the app (a time-based key):</Text>
            <Group gap="xs">
              <Code data-testid="totp-secret" style={{ wordBreak: 'break-all' }}>
                {e.secret}
              </Code>
              <CopyButton value={e.secret}>
                {({ copied, copy }) => (
                  <Button size="compact-sm" variant="default" onClick={copy}>
                    {copied ? 'Copied' : 'Copy secret'}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <ProblemAlert error={confirm.error} />
            <TextInput
              label="2. Enter the 6-digit code the app shows"
              required
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              value={code}
              onChange={(ev) => setCode(ev.currentTarget.value.replaceAll(/\D/g, ''))}
            />
            <Group justify="flex-end">
              {props.onCancel && (
                <Button variant="default" onClick={props.onCancel}>
                  Cancel
                </Button>
              )}
              <Button type="submit" loading={confirm.isPending} disabled={code.length !== 6}>
                Turn on
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </>
  );
}

/** The recovery codes, shown once: copy them or download them as a text file made in the page. */
export function RecoveryCodes(props: { codes: string[]; done: string; onDone(): void }) {
  const text = `${props.codes.join('\n')}\n`;
  const href = useMemo(() => URL.createObjectURL(new Blob([text], { type: 'text/plain' })), [text]);
  useEffect(() => () => URL.revokeObjectURL(href), [href]);
  return (
    <Stack>
      <Alert color="red" title="Save them now">
        These codes will not be shown again. Each one signs you in once if you lose your authenticator app;
        Meridian keeps only their hashes.
      </Alert>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" data-testid="recovery-codes">
        {props.codes.map((c) => (
          <Code key={c} fz="sm">
            {c}
          </Code>
        ))}
      </SimpleGrid>
      <Group justify="space-between">
        <Group gap="sm">
          <CopyButton value={text}>
            {({ copied, copy }) => (
              <Button color={copied ? 'teal' : 'blue'} onClick={copy}>
                {copied ? 'Copied' : 'Copy codes'}
              </Button>
            )}
          </CopyButton>
          <Button component="a" variant="default" href={href} download="meridian-recovery-codes.txt">
            Download
          </Button>
        </Group>
        <Button variant="default" onClick={props.onDone}>
          {props.done}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * `/console/two-factor/enrol`: a sign-in the tenant's `requireTwoFactor` holds back (session stage
 * `enrol_two_factor`) continues here; confirming the first code completes it (a new session cookie).
 */
export function EnrolPage() {
  const queryClient = useQueryClient();
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <AuthCard title="Set up two-factor sign-in">
      {codes ? (
        <RecoveryCodes
          codes={codes}
          done="Continue"
          onDone={async () => {
            await queryClient.invalidateQueries({ queryKey: ['session'] });
            navigate('/settings/api-keys');
          }}
        />
      ) : (
        <Stack>
          <Text size="sm">
            Your organisation requires a second factor: set up an authenticator app to finish signing in.
          </Text>
          <EnrolmentForm onEnrolled={setCodes} />
        </Stack>
      )}
    </AuthCard>
  );
}
