/**
 * The tenant's rate limit and its use in the current window (`GET /v1/tenant`'s `rateLimit`: used, remaining,
 * resetAt; docs/design.md, "Limits"): a bar of the requests used in the last 60 s and a countdown to when quota
 * starts coming back. The window slides, so "resets" is when its oldest request leaves it; then the use is read again
 * (at most every 5 s: each read is a request of the tenant too).
 */
import { Group, Progress, Stack, Text } from '@mantine/core';
import { useInterval } from '@mantine/hooks';
import type { Tenant } from '@meridian/sdk';
import { useEffect, useRef, useState } from 'react';

/**
 * @param readAt when `rateLimit` was read (epoch ms).
 * @param refresh reads the tenant again.
 */
export function RateLimitUsage(props: { rateLimit: Tenant['rateLimit']; readAt: number; refresh(): void }) {
  const { rateLimit, readAt, refresh } = props;
  const [now, setNow] = useState(Date.now());
  const ticker = useInterval(() => setNow(Date.now()), 1000);
  useEffect(() => {
    ticker.start();
    return ticker.stop;
  }, [ticker]);
  const expired = now >= Date.parse(rateLimit.resetAt) && now - readAt > 5000;
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
  // Once per expiry (the flag turns false when the new reading arrives).
  useEffect(() => {
    if (expired) refreshRef.current();
  }, [expired]);
  const { requestsPerMinute: limit, used } = rateLimit;
  const percent = Math.min(100, Math.round((used / limit) * 100));
  const seconds = Math.max(0, Math.ceil((Date.parse(rateLimit.resetAt) - now) / 1000));
  return (
    <Stack gap={6}>
      <Text size="sm" c="dimmed">
        Rate limit
      </Text>
      <Text fw={500}>{limit.toLocaleString('en')} requests per minute</Text>
      <Progress.Root size="lg">
        <Progress.Section
          value={percent}
          color={percent >= 90 ? 'red' : percent >= 70 ? 'yellow' : 'blue'}
          aria-label="Requests used in the last 60 seconds"
          aria-valuetext={`${used} of ${limit}`}
        />
      </Progress.Root>
      <Group justify="space-between" gap="xs">
        <Text size="sm" data-testid="rate-limit-used">
          {used.toLocaleString('en')} used in the last 60 s · {rateLimit.remaining.toLocaleString('en')} left
        </Text>
        <Text size="sm" c="dimmed" data-testid="rate-limit-reset">
          {seconds > 0 ? `resets in ${seconds} s` : 'quota coming back'}
        </Text>
      </Group>
    </Stack>
  );
}
