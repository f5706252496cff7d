/**
 * Settings → General: the tenant's name, currency and time zone (editable by admins: ./OrganisationForm.tsx), plan,
 * rate limit with the current minute's use (./RateLimitUsage.tsx), the optional model's switch (`llmEnabled`,
 * admins) and `requireTwoFactor` (owner only; docs/accounts.md). All through `GET`/`PATCH /v1/tenant`.
 */
import { Alert, Badge, Paper, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loading, PageHeader, ProblemAlert } from '../components';
import { useConsole } from '../context';
import { OrganisationForm } from './OrganisationForm';
import { RateLimitUsage } from './RateLimitUsage';

export function GeneralPage() {
  const { client, isAdmin, session } = useConsole();
  const queryClient = useQueryClient();
  // Refreshed every 15 s, so the rate limit's use stays current (each read counts as one request).
  const tenant = useQuery({
    queryKey: ['tenant'],
    queryFn: () => client.tenant.retrieve(),
    refetchInterval: 15_000,
  });
  const update = useMutation({
    mutationFn: (settings: { llmEnabled?: boolean; requireTwoFactor?: boolean }) =>
      client.tenant.update({ settings }),
    onSuccess: (t) => queryClient.setQueryData(['tenant'], t),
  });
  const isOwner = session.user.role === 'owner';
  if (tenant.isPending || tenant.isError) {
    return (
      <>
        <PageHeader title="General" />
        {tenant.isPending ? <Loading what="the organisation" /> : <ProblemAlert error={tenant.error} />}
      </>
    );
  }
  const t = tenant.data;
  return (
    <>
      <PageHeader title="General" />
      <Stack>
        <Paper withBorder p="md">
          <OrganisationForm tenant={t} />
        </Paper>
        <Paper withBorder p="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <div>
              <Text size="sm" c="dimmed">
                Plan
              </Text>
              <Badge variant="light" size="lg" mt={4}>
                {t.plan}
              </Badge>
            </div>
            <RateLimitUsage
              rateLimit={t.rateLimit}
              readAt={tenant.dataUpdatedAt}
              refresh={() => void tenant.refetch()}
            />
          </SimpleGrid>
        </Paper>
        <ProblemAlert error={update.error} />
        <Paper withBorder p="md">
          <Stack>
            <Switch
              label="Optional model"
              description="Let agents and Ask call the configured language model (off: rule-based answers only)."
              checked={t.settings.llmEnabled}
              disabled={!isAdmin || update.isPending}
              onChange={(e) => update.mutate({ llmEnabled: e.currentTarget.checked })}
            />
            <Switch
              label="Require two-factor sign-in"
              description="Everyone must enrol an authenticator app at their next sign-in. Only the owner changes this."
              checked={t.settings.requireTwoFactor}
              disabled={!isOwner || update.isPending}
              onChange={(e) => update.mutate({ requireTwoFactor: e.currentTarget.checked })}
            />
            {!isAdmin && (
              <Alert color="blue" title="Read only">
                Your role ({session.user.role}) cannot change these settings.
              </Alert>
            )}
          </Stack>
        </Paper>
      </Stack>
    </>
  );
}
