/**
 * An endpoint's signing secret, masked until an admin asks to see it: `GET /v1/webhooks/{id}/secret`
 * (`client.webhooks.revealSecret`), audited as `webhook.secret_revealed`. Shown with a copy button and, within 24 h of
 * a rotation, when the previous secret stops signing. Hidden again on demand; never kept in the query cache.
 */
import { Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { ProblemAlert } from '../components';
import { useConsole } from '../context';

/** Key it by the endpoint's id, so another endpoint starts masked. */
export function WebhookSecret({ webhookId }: { webhookId: string }) {
  const { client } = useConsole();
  const reveal = useMutation({ mutationFn: () => client.webhooks.revealSecret(webhookId) });
  const shown = reveal.data;
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} id={`secret-${webhookId}`}>
        Signing secret
      </Text>
      <Group gap="xs" wrap="wrap">
        <Code
          data-testid="revealed-secret"
          aria-labelledby={`secret-${webhookId}`}
          style={{ wordBreak: 'break-all' }}
        >
          {shown ? shown.secret : 'whsec_••••••••••••••••••••••••'}
        </Code>
        {shown ? (
          <>
            <CopyButton value={shown.secret}>
              {({ copied, copy }) => (
                <Button size="compact-sm" color={copied ? 'teal' : 'blue'} onClick={copy}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
            <Button size="compact-sm" variant="default" onClick={() => reveal.reset()}>
              Hide
            </Button>
          </>
        ) : (
          <Button
            size="compact-sm"
            variant="default"
            loading={reveal.isPending}
            onClick={() => reveal.mutate()}
          >
            Reveal
          </Button>
        )}
      </Group>
      {shown?.previousSecretExpiresAt && (
        <Text size="sm" c="dimmed">
          The previous secret also signs deliveries until{' '}
          <strong>{new Date(shown.previousSecretExpiresAt).toLocaleString()}</strong>.
        </Text>
      )}
      <ProblemAlert error={reveal.error} />
    </Stack>
  );
}
