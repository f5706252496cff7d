/**
 * The dialogs of Settings → Webhooks: create or edit an endpoint (URL, description, event kinds with what each
 * reports, enabled; an edit sends `If-Match` so a concurrent change is reported instead of overwritten), the signing
 * secret shown after creation or rotation (and revealed again on demand: ./WebhookSecret.tsx), and rotation's
 * confirmation.
 */
import {
  Alert,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import type { WebhookEndpoint, WebhookEventFilter } from '@meridian/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConsoleModal, ProblemAlert } from '../components';
import { useConsole } from '../context';
import { EVENT_KINDS } from './webhook-events';

export function EndpointModal(props: {
  endpoint: WebhookEndpoint | null;
  onClose(): void;
  onCreated(secret: string): void;
}) {
  const { client } = useConsole();
  const queryClient = useQueryClient();
  const editing = props.endpoint;
  const [url, setUrl] = useState(editing?.url ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [events, setEvents] = useState<string[]>(editing?.events ?? ['*']);
  const [enabled, setEnabled] = useState(editing?.enabled ?? true);
  const [version, setVersion] = useState(editing?.version);
  const save = useMutation({
    mutationFn: async () => {
      const body = {
        url,
        description: description || null,
        events: events as WebhookEventFilter[],
        enabled,
      };
      if (editing) {
        await client.webhooks.update(editing.id, body, { headers: { 'If-Match': `"${version}"` } });
        return null;
      }
      return (await client.webhooks.create({ ...body, description: description || undefined })).secret;
    },
    onSuccess: async (secret) => {
      await queryClient.invalidateQueries({ queryKey: ['webhooks'] });
      if (secret) props.onCreated(secret);
      else props.onClose();
    },
  });
  /** Reads the endpoint again after a stale `If-Match`: its current fields and version replace the form's. */
  const reload = async (id: string) => {
    const current = await client.webhooks.retrieve(id);
    setUrl(current.url);
    setDescription(current.description ?? '');
    setEvents(current.events);
    setEnabled(current.enabled);
    setVersion(current.version);
    save.reset();
    await queryClient.invalidateQueries({ queryKey: ['webhooks'] });
  };
  const all = events.includes('*');
  return (
    <ConsoleModal onClose={props.onClose} title={editing ? 'Edit endpoint' : 'Add an endpoint'} size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Stack>
          <ProblemAlert error={save.error} onReload={editing ? () => void reload(editing.id) : undefined} />
          <TextInput
            label="Endpoint URL"
            description="Meridian POSTs signed events here (https in production)."
            type="url"
            required
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            data-autofocus
          />
          <TextInput
            label="Description"
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
          />
          <Checkbox
            label="All events"
            description="Every kind, including kinds added later."
            checked={all}
            onChange={(e) => setEvents(e.currentTarget.checked ? ['*'] : [])}
          />
          {!all && (
            <Checkbox.Group label="Events" value={events} onChange={setEvents}>
              <Stack gap="xs" mt="xs">
                {EVENT_KINDS.map((k) => (
                  <Checkbox key={k.kind} value={k.kind} label={k.kind} description={k.about} />
                ))}
              </Stack>
            </Checkbox.Group>
          )}
          <Switch label="Enabled" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!url || events.length === 0}>
              {editing ? 'Save' : 'Add endpoint'}
            </Button>
          </Group>
        </Stack>
      </form>
    </ConsoleModal>
  );
}

export function WebhookSecretModal(props: { secret: string; oldStopsAt: string | null; onClose(): void }) {
  return (
    <ConsoleModal onClose={props.onClose} title="Signing secret" size="lg">
      <Stack>
        <Alert color="red" title="Copy it now">
          Verify each delivery’s <Code>webhook-signature</Code> with this secret. Admins can reveal it again
          from the endpoint’s details.
        </Alert>
        {props.oldStopsAt && (
          <Text size="sm">
            Deliveries carry a signature with the old secret too until{' '}
            <strong>{new Date(props.oldStopsAt).toLocaleString()}</strong>.
          </Text>
        )}
        <Code block data-testid="webhook-secret" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {props.secret}
        </Code>
        <Group justify="space-between">
          <CopyButton value={props.secret}>
            {({ copied, copy }) => (
              <Button color={copied ? 'teal' : 'blue'} onClick={copy}>
                {copied ? 'Copied' : 'Copy secret'}
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

export function RotateModal(props: {
  endpoint: WebhookEndpoint;
  onClose(): void;
  onRotated(secret: string): void;
}) {
  const { client } = useConsole();
  const rotate = useMutation({
    mutationFn: () => client.webhooks.rotateSecret(props.endpoint.id),
    onSuccess: (w) => props.onRotated(w.secret),
  });
  return (
    <ConsoleModal onClose={props.onClose} title="Rotate the signing secret?">
      <Stack>
        <ProblemAlert error={rotate.error} />
        <Text size="sm">
          A new secret is issued now. For 24 hours every delivery is signed with both secrets, so you can
          deploy the new one without missing events.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button loading={rotate.isPending} onClick={() => rotate.mutate()}>
            Rotate secret
          </Button>
        </Group>
      </Stack>
    </ConsoleModal>
  );
}
