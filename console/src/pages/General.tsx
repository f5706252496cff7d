/**
 * Settings → General: the tenant's name, currency, time zone, plan and rate limit (read-only: the API does not change
 * them), the optional model's switch (`llmEnabled`, admins) and `requireTwoFactor` (owner only; docs/accounts.md).
 */
import { Alert, Paper, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loading, PageHeader, ProblemAlert } from '../components';
import { useConsole } from '../context';

function Field({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={500}>{value}</Text>
    </div>
  );
}

export function GeneralPage() {
  const { client, isAdmin, session } = useConsole();
  const queryClient = useQueryClient();
  const tenant = useQuery({ queryKey: ['tenant'], queryFn: () => client.tenant.retrieve() });
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
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Field label="Organisation" value={t.name} />
            <Field label="Currency" value={t.currency} />
            <Field label="Time zone" value={t.timezone} />
            <Field label="Plan" value={t.plan} />
            <Field label="Rate limit" value={`${t.rateLimit.requestsPerMinute} requests per minute`} />
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
