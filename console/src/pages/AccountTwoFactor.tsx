/**
 * Account → Two-factor sign-in (docs/accounts.md, "Two-factor sign-in"): enrol an authenticator app from a QR code
 * or its secret typed in, confirmed with a first code; the ten recovery codes shown once (copy, download); how many
 * are left; new recovery codes and turning the factor off, each confirmed with the password.
 */
import {
  Alert,
  Badge,
  Box,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { authCall } from '../auth';
import { Loading, ProblemAlert } from '../components';
import { useConsole } from '../context';
import { Section } from './AccountSection';

type Dialog = 'enrol' | 'regenerate' | 'disable' | null;

export function TwoFactorSection() {
  const { session } = useConsole();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const on = session.user.twoFactorEnabled;
  const left = session.session.recoveryCodesLeft;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['session'] });
  const showCodes = (recoveryCodes: string[]) => {
    setDialog(null);
    setCodes(recoveryCodes);
    void refresh();
  };
  return (
    <Section
      title="Two-factor sign-in"
      description="A 6-digit code from an authenticator app, asked after your password at every sign-in."
    >
      <Group gap="sm">
        <Badge color={on ? 'teal' : 'gray'} variant="dot" style={{ overflow: 'visible' }}>
          {on ? 'On' : 'Off'}
        </Badge>
        {on && (
          <Text size="sm" data-testid="recovery-codes-left">
            {left} of 10 recovery codes left
          </Text>
        )}
      </Group>
      {on && left <= 3 && (
        <Alert color="orange" title="Few recovery codes left">
          Generate new ones so that you can still sign in if you lose your authenticator app.
        </Alert>
      )}
      {on && session.tenant.requireTwoFactor && (
        <Text size="sm" c="dimmed">
          Your organisation requires two-factor sign-in, so it cannot be turned off.
        </Text>
      )}
      <Group gap="sm">
        {!on && <Button onClick={() => setDialog('enrol')}>Turn on two-factor sign-in</Button>}
        {on && (
          <Button variant="default" onClick={() => setDialog('regenerate')}>
            Regenerate recovery codes
          </Button>
        )}
        {on && !session.tenant.requireTwoFactor && (
          <Button variant="light" color="red" onClick={() => setDialog('disable')}>
            Turn off two-factor sign-in
          </Button>
        )}
      </Group>
      {dialog === 'enrol' && <EnrolModal onClose={() => setDialog(null)} onEnrolled={showCodes} />}
      {dialog === 'regenerate' && (
        <PasswordModal
          title="Regenerate recovery codes"
          explain="Ten new codes replace your current ones: every earlier code, used or not, stops working."
          action="Regenerate codes"
          call={async (password) =>
            showCodes(
              (
                await authCall<{ recoveryCodes: string[] }>('POST', '/two-factor/recovery-codes', {
                  password,
                })
              ).recoveryCodes,
            )
          }
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'disable' && (
        <PasswordModal
          title="Turn off two-factor sign-in?"
          explain="Your password alone will then sign you in, and your recovery codes are deleted. Your sessions stay signed in."
          action="Turn off"
          danger
          call={async (password) => {
            await authCall<null>('DELETE', '/two-factor', { password });
            setDialog(null);
            await refresh();
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {codes && <RecoveryCodesModal codes={codes} onClose={() => setCodes(null)} />}
    </Section>
  );
}

interface Enrolment {
  secret: string;
  otpauthUri: string;
  qrCode: string;
}

function EnrolModal(props: { onClose(): void; onEnrolled(codes: string[]): void }) {
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
    <Modal
      opened
      closeButtonProps={{ 'aria-label': 'Close' }}
      onClose={props.onClose}
      title="Turn on two-factor sign-in"
      size="lg"
    >
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
              <Button variant="default" onClick={props.onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={confirm.isPending} disabled={code.length !== 6}>
                Turn on
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

/** A confirmation that asks for the current password, then runs `call` with it. */
function PasswordModal(props: {
  title: string;
  explain: string;
  action: string;
  danger?: boolean;
  call(password: string): Promise<void>;
  onClose(): void;
}) {
  const [password, setPassword] = useState('');
  const run = useMutation({ mutationFn: () => props.call(password) });
  return (
    <Modal opened closeButtonProps={{ 'aria-label': 'Close' }} onClose={props.onClose} title={props.title}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          run.mutate();
        }}
      >
        <Stack>
          <Text size="sm">{props.explain}</Text>
          <ProblemAlert error={run.error} />
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" color={props.danger ? 'red' : 'blue'} loading={run.isPending}>
              {props.action}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The recovery codes, shown once: copy them or download them as a text file. */
function RecoveryCodesModal(props: { codes: string[]; onClose(): void }) {
  const text = `${props.codes.join('\n')}\n`;
  const href = useMemo(() => URL.createObjectURL(new Blob([text], { type: 'text/plain' })), [text]);
  useEffect(() => () => URL.revokeObjectURL(href), [href]);
  return (
    <Modal
      opened
      closeButtonProps={{ 'aria-label': 'Close' }}
      onClose={props.onClose}
      title="Your recovery codes"
      size="lg"
    >
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
          <Button variant="default" onClick={props.onClose}>
            I have saved them
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
