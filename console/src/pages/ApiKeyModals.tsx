/**
 * The dialogs of Settings → API keys: create (scopes capped by the role, expiry), the new key shown once, revoke
 * (naming the key) and roll (grace period).
 */
import {
  Alert,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Radio,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import type { ApiKey, ApiKeyScope, ApiKeyWithSecret } from '@meridian/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConsoleModal, ProblemAlert } from '../components';
import { useConsole } from '../context';

/** What each scope allows (spec `ApiKeyScope`). */
const SCOPES: { scope: ApiKeyScope; label: string; allows: string }[] = [
  {
    scope: 'read',
    label: 'read',
    allows: 'Read projects, risks, issues, resources and reports; ask questions.',
  },
  { scope: 'write', label: 'write', allows: 'Create and change project data; run agents.' },
  { scope: 'admin', label: 'admin', allows: 'Manage webhooks, API keys, the audit log and tenant settings.' },
];

/** The scopes a role may give a key (docs/accounts.md, "Roles"). */
const ROLE_SCOPES: Record<string, ApiKeyScope[]> = {
  owner: ['read', 'write', 'admin'],
  admin: ['read', 'write', 'admin'],
  member: ['read', 'write'],
  viewer: ['read'],
};

const EXPIRY = [
  { value: 'never', label: 'Never' },
  { value: '7', label: 'In 7 days' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: 'date', label: 'On a date…' },
];

/** The `expiresAt` of an expiry choice, or undefined for never. */
function expiryOf(choice: string, date: string): string | undefined {
  if (choice === 'never') return undefined;
  if (choice === 'date') return date ? new Date(`${date}T23:59:59`).toISOString() : undefined;
  return new Date(Date.now() + Number(choice) * 86_400_000).toISOString();
}

export function CreateKeyModal(props: { onClose(): void; onCreated(key: ApiKeyWithSecret): void }) {
  const { client, session } = useConsole();
  const queryClient = useQueryClient();
  const allowed = ROLE_SCOPES[session.user.role] ?? [];
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['read']);
  const [expiry, setExpiry] = useState('90');
  const [date, setDate] = useState('');
  const create = useMutation({
    mutationFn: () =>
      client.apiKeys.create({
        name,
        scopes: scopes as ApiKeyScope[],
        ...(expiryOf(expiry, date) ? { expiresAt: expiryOf(expiry, date) } : {}),
      }),
    onSuccess: async (key) => {
      await queryClient.invalidateQueries({ queryKey: ['api-keys'] });
      props.onCreated(key);
    },
  });
  return (
    <ConsoleModal onClose={props.onClose} title="Create an API key" size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <Stack>
          <ProblemAlert error={create.error} />
          <TextInput
            label="Name"
            description="What the key is for, e.g. “Nightly export”."
            required
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            data-autofocus
          />
          <Checkbox.Group label="Scopes" value={scopes} onChange={setScopes} required>
            <Stack gap="xs" mt="xs">
              {SCOPES.filter((s) => allowed.includes(s.scope)).map((s) => (
                <Checkbox key={s.scope} value={s.scope} label={s.label} description={s.allows} />
              ))}
            </Stack>
          </Checkbox.Group>
          <Select
            label="Expires"
            data={EXPIRY}
            value={expiry}
            onChange={(v) => setExpiry(v ?? 'never')}
            allowDeselect={false}
          />
          {expiry === 'date' && (
            <TextInput
              label="Expiry date"
              type="date"
              required
              value={date}
              onChange={(e) => setDate(e.currentTarget.value)}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending} disabled={!name || scopes.length === 0}>
              Create key
            </Button>
          </Group>
        </Stack>
      </form>
    </ConsoleModal>
  );
}

export function SecretModal(props: { apiKey: ApiKeyWithSecret; rolled: boolean; onClose(): void }) {
  return (
    <ConsoleModal
      onClose={props.onClose}
      title={props.rolled ? 'Your new key (rolled)' : 'Your new API key'}
      size="lg"
    >
      <Stack>
        <Alert color="red" title="Copy it now">
          This key will not be shown again. Store it in your secret manager; Meridian keeps only a hash of it.
        </Alert>
        <Code block data-testid="new-key" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {props.apiKey.key}
        </Code>
        <Group justify="space-between">
          <CopyButton value={props.apiKey.key}>
            {({ copied, copy }) => (
              <Button color={copied ? 'teal' : 'blue'} onClick={copy}>
                {copied ? 'Copied' : 'Copy key'}
              </Button>
            )}
          </CopyButton>
          <Button variant="default" onClick={props.onClose}>
            Done
          </Button>
        </Group>
      </Stack>
    </ConsoleModal>
  );
}

export function RevokeKeyModal(props: { apiKey: ApiKey; onClose(): void }) {
  const { client } = useConsole();
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => client.apiKeys.delete(props.apiKey.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['api-keys'] });
      props.onClose();
    },
  });
  return (
    <ConsoleModal onClose={props.onClose} title={`Revoke “${props.apiKey.name}”?`}>
      <Stack>
        <ProblemAlert error={revoke.error} />
        <Text>
          The key <Code>{props.apiKey.prefix}…</Code> will stop working at once, for every script that uses
          it. This cannot be undone.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button color="red" loading={revoke.isPending} onClick={() => revoke.mutate()}>
            Revoke “{props.apiKey.name}”
          </Button>
        </Group>
      </Stack>
    </ConsoleModal>
  );
}

const GRACE = [
  { value: 'now', label: 'Now', detail: 'the old key stops working at once' },
  { value: '1h', label: '1 hour', detail: 'time to swap one script' },
  { value: '24h', label: '24 hours', detail: 'time for a deployment' },
  { value: '7d', label: '7 days', detail: 'time for several teams' },
] as const;

export function RollKeyModal(props: {
  apiKey: ApiKey;
  onClose(): void;
  onRolled(key: ApiKeyWithSecret): void;
}) {
  const { client } = useConsole();
  const queryClient = useQueryClient();
  const [grace, setGrace] = useState<string>('24h');
  const roll = useMutation({
    mutationFn: () =>
      client.apiKeys.roll(props.apiKey.id, { gracePeriod: grace as 'now' | '1h' | '24h' | '7d' }),
    onSuccess: async (key) => {
      await queryClient.invalidateQueries({ queryKey: ['api-keys'] });
      props.onRolled(key);
    },
  });
  return (
    <ConsoleModal onClose={props.onClose} title={`Roll “${props.apiKey.name}”`}>
      <Stack>
        <ProblemAlert error={roll.error} />
        <Text size="sm">
          A new key with the same name and scopes is issued. Keep the old key{' '}
          <Code>{props.apiKey.prefix}…</Code> working while you switch:
        </Text>
        <Radio.Group value={grace} onChange={setGrace} label="Old key keeps working for">
          <Stack gap="xs" mt="xs">
            {GRACE.map((g) => (
              <Radio key={g.value} value={g.value} label={g.label} description={g.detail} />
            ))}
          </Stack>
        </Radio.Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button loading={roll.isPending} onClick={() => roll.mutate()}>
            Roll key
          </Button>
        </Group>
      </Stack>
    </ConsoleModal>
  );
}
