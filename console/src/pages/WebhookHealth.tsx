/**
 * An endpoint's health as the API keeps it (`WebhookEndpoint.health`; docs/webhooks.md, "Endpoint health"): the
 * last attempt's outcome, status and time, failures in a row since the last success, and whether the circuit
 * breaker holds it back after timeouts in a row.
 */
import { Badge, Stack, Text } from '@mantine/core';
import type { WebhookEndpoint } from '@meridian/sdk';
import { When } from '../components';

/** The Health cell of an endpoint's row. */
export function EndpointHealth({ health }: { health: WebhookEndpoint['health'] }) {
  if (health.lastAttemptAt === null)
    return (
      <Text size="sm" c="dimmed">
        No deliveries yet
      </Text>
    );
  const answer = health.lastResponseStatus === null ? 'no answer' : String(health.lastResponseStatus);
  const failures = health.consecutiveFailures;
  return (
    <Stack gap={2} data-testid="endpoint-health">
      {health.lastAttemptSucceeded ? (
        <Badge color="green" variant="dot" style={{ overflow: 'visible' }}>
          Last delivery OK ({answer})
        </Badge>
      ) : (
        <Badge color={health.unhealthy ? 'red' : 'orange'} variant="dot" style={{ overflow: 'visible' }}>
          {health.unhealthy ? 'Timing out' : 'Failing'}: {failures} {failures === 1 ? 'failure' : 'failures'}{' '}
          in a row
        </Badge>
      )}
      <Text size="xs" c="dimmed">
        {health.lastAttemptSucceeded ? 'Last attempt ' : `Last: ${answer}, `}
        <When at={health.lastAttemptAt} />
      </Text>
    </Stack>
  );
}
