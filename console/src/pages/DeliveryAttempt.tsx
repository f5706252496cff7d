/**
 * One attempt in the delivery log: response status, duration, time, error, and the first bytes of the response
 * body (`responseBodyExcerpt`: at most 1,024 bytes, said when truncated; a binary body is shown as such), collapsed
 * until asked for, in monospace.
 */
import { Button, Code, Collapse, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { DeliveryAttempt } from '@meridian/sdk';
import { When } from '../components';

export function AttemptLine({ attempt: a }: { attempt: DeliveryAttempt }) {
  const [open, { toggle }] = useDisclosure(false);
  const hasBody = a.responseBodyExcerpt !== null || a.responseBodyBinary;
  return (
    <Stack gap={2} data-testid="attempt">
      <Text size="sm">
        {a.statusCode ?? 'no answer'} · {a.durationMs} ms · <When at={a.attemptedAt} />
        {a.error ? ` · ${a.error}` : ''}
        {hasBody && (
          <>
            {' · '}
            <Button size="compact-xs" variant="default" onClick={toggle} aria-expanded={open}>
              {open ? 'Hide body' : 'Body'}
            </Button>
          </>
        )}
      </Text>
      {hasBody && (
        <Collapse expanded={open}>
          {a.responseBodyBinary ? (
            <Text size="sm" c="dimmed" data-testid="attempt-body">
              Binary body (not shown)
              {a.responseBodyTruncated ? ', longer than 1,024 bytes' : ''}
            </Text>
          ) : (
            <>
              <Code
                block
                data-testid="attempt-body"
                style={{ maxHeight: 160, overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
              >
                {a.responseBodyExcerpt}
              </Code>
              {a.responseBodyTruncated && (
                <Text size="xs" c="dimmed">
                  First 1,024 bytes of a longer body.
                </Text>
              )}
            </>
          )}
        </Collapse>
      )}
    </Stack>
  );
}
