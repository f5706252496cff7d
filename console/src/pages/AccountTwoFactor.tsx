/**
 * Account → Two-factor sign-in (docs/accounts.md, "Two-factor sign-in"): enrolment (./TwoFactorEnrolment.tsx) in a
 * dialog, the recovery codes shown once, how many are left; new recovery codes and turning the factor off, each
 * confirmed with the password.
 */
import { Alert, Badge, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { authCall } from '../auth';
import { ConsoleModal, ProblemAlert } from '../components';
import { useConsole } from '../context';
import { Section } from './AccountSection';
import { EnrolmentForm, RecoveryCodes } from './TwoFactorEnrolment';

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
    <ConsoleModal onClose={props.onClose} title={props.title}>
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
    </ConsoleModal>
  );
}

function EnrolModal(props: { onClose(): void; onEnrolled(codes: string[]): void }) {
  return (
    <ConsoleModal onClose={props.onClose} title="Turn on two-factor sign-in" size="lg">
      <EnrolmentForm onEnrolled={props.onEnrolled} onCancel={props.onClose} />
    </ConsoleModal>
  );
}

function RecoveryCodesModal(props: { codes: string[]; onClose(): void }) {
  return (
    <ConsoleModal onClose={props.onClose} title="Your recovery codes" size="lg">
      <RecoveryCodes codes={props.codes} done="I have saved them" onDone={props.onClose} />
    </ConsoleModal>
  );
}
