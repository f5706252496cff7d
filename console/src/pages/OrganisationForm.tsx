/**
 * The tenant's name, currency and time zone on Settings → General, changed with `PATCH /v1/tenant` (admins; others
 * see them read-only). Zones and currencies are the browser's ICU lists (`Intl.supportedValuesOf`), searchable; the
 * server checks them against its own (an unknown one is a 422 shown as its problem). A currency change relabels the
 * stored amounts without converting them, and the form says so before it is saved (docs/design.md, "Auth,
 * tenants, users, keys").
 */
import { Alert, Button, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { Tenant } from '@meridian/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { ProblemAlert } from '../components';
import { useConsole } from '../context';

/** The browser's IANA zones with `UTC` and the tenant's current zone, sorted. */
function timeZones(current: string): string[] {
  return [...new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', current])].sort();
}

/** ISO 4217 codes with their English names ("EUR — Euro"), and the tenant's current code. */
function currencies(current: string): { value: string; label: string }[] {
  const names = new Intl.DisplayNames(['en'], { type: 'currency' });
  return [...new Set([...Intl.supportedValuesOf('currency'), current])]
    .sort()
    .map((code) => ({ value: code, label: `${code} — ${names.of(code) ?? code}` }));
}

/** Name, currency and time zone; compared with the tenant as last read, so Save is offered only for a change. */
export function OrganisationForm({ tenant }: { tenant: Tenant }) {
  const { client, isAdmin } = useConsole();
  const queryClient = useQueryClient();
  const [name, setName] = useState(tenant.name);
  const [currency, setCurrency] = useState(tenant.currency);
  const [timezone, setTimezone] = useState(tenant.timezone);
  const zones = useMemo(() => timeZones(tenant.timezone), [tenant.timezone]);
  const codes = useMemo(() => currencies(tenant.currency), [tenant.currency]);
  const save = useMutation({
    mutationFn: () =>
      client.tenant.update({
        ...(name.trim() !== tenant.name ? { name: name.trim() } : {}),
        ...(currency !== tenant.currency ? { currency } : {}),
        ...(timezone !== tenant.timezone ? { timezone } : {}),
      }),
    onSuccess: (t) => {
      queryClient.setQueryData(['tenant'], t);
      setName(t.name);
      setCurrency(t.currency);
      setTimezone(t.timezone);
    },
  });
  const changed = name.trim() !== tenant.name || currency !== tenant.currency || timezone !== tenant.timezone;
  return (
    <form
      aria-label="Organisation"
      onSubmit={(e) => {
        e.preventDefault();
        if (changed) save.mutate();
      }}
    >
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label="Organisation name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            readOnly={!isAdmin}
            required
            maxLength={200}
            error={name.trim() === '' ? 'A name is required' : undefined}
          />
          <Select
            label="Currency"
            description="Of every money field"
            data={codes}
            value={currency}
            onChange={(v) => v && setCurrency(v)}
            searchable
            allowDeselect={false}
            readOnly={!isAdmin}
            nothingFoundMessage="No such currency"
          />
          <Select
            label="Time zone"
            description="Decides when a due date has passed"
            data={zones}
            value={timezone}
            onChange={(v) => v && setTimezone(v)}
            searchable
            allowDeselect={false}
            readOnly={!isAdmin}
            limit={50}
            nothingFoundMessage="No such time zone"
          />
        </SimpleGrid>
        {currency !== tenant.currency && (
          <Alert color="yellow" title="Amounts are not converted">
            Meridian stores amounts without a conversion: every budget and cost will read as {currency} with
            the same number it has in {tenant.currency} today. Change the currency to correct it, not to
            convert.
          </Alert>
        )}
        <ProblemAlert error={save.error} />
        {isAdmin && (
          <Group justify="flex-end">
            {save.isSuccess && !changed && (
              <Text size="sm" c="dimmed" role="status">
                Saved.
              </Text>
            )}
            <Button type="submit" disabled={!changed || name.trim() === ''} loading={save.isPending}>
              Save
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
