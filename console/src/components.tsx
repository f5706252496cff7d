/**
 * Small shared pieces: a problem shown as its title and detail, loading and empty states, relative times with the
 * exact time on hover, a page header whose heading takes the focus when the page changes, and a dialog that fills a
 * small screen and gives the focus back to what opened it (docs/console.md, "Accessibility and small screens").
 */
import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  type ModalProps,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type ReactNode, useLayoutEffect } from 'react';
import { isStale, problemOf } from './api';

/**
 * An error as the API's problem: its `title` and `detail`; a stale `If-Match` (412) as "changed by someone else", with
 * a Reload button when `onReload` is given (it should read the record again and forget the failed change).
 */
export function ProblemAlert({ error, onReload }: { error: unknown; onReload?: () => void }) {
  if (!error) return null;
  if (isStale(error)) {
    return (
      <Alert color="red" title="Changed by someone else" role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">
            This record was changed by someone else since you opened it — reload to see the current version,
            then make your change again.
          </Text>
          {onReload && (
            <Button size="compact-sm" variant="default" onClick={onReload}>
              Reload
            </Button>
          )}
        </Stack>
      </Alert>
    );
  }
  const p = problemOf(error);
  return (
    <Alert color="red" title={p.title} role="alert">
      {p.detail}
      {p.errors?.map((e) => (
        <Text key={e.path} size="sm">
          {e.path}: {e.message}
        </Text>
      ))}
    </Alert>
  );
}

/** The loading state of a page or a table. */
export function Loading({ what }: { what: string }) {
  return (
    <Center py="xl" aria-busy="true" role="status">
      <Group gap="sm">
        <Loader size="sm" />
        <Text c="dimmed">Loading {what}…</Text>
      </Group>
    </Center>
  );
}

/** The empty state of a list. */
export function Empty({ children }: { children: ReactNode }) {
  return (
    <Center py="xl">
      <Text c="dimmed">{children}</Text>
    </Center>
  );
}

const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "3 minutes ago" / "in 7 days". */
export function fromNow(iso: string, now = Date.now()): string {
  const diff = Date.parse(iso) - now;
  for (const [unit, ms] of units) {
    if (Math.abs(diff) >= ms || unit === 'second') return relative.format(Math.round(diff / ms), unit);
  }
  return iso;
}

/** A time as "3 minutes ago", the exact time on hover (and on focus, for keyboards); a dash for null. */
export function When({ at, never = '—' }: { at: string | null | undefined; never?: string }) {
  if (!at)
    return (
      <Text span size="sm">
        {never}
      </Text>
    );
  const exact = new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'long' });
  return (
    <Tooltip label={exact} withArrow>
      <Text span size="sm" tabIndex={0} style={{ textDecoration: 'underline dotted', whiteSpace: 'nowrap' }}>
        <time dateTime={at}>{fromNow(at)}</time>
      </Text>
    </Tooltip>
  );
}

/** The id of the page's heading, which the shell focuses when the page changes (./Shell.tsx). */
export const PAGE_HEADING_ID = 'page-heading';

/** A page's title (its one `h1`, focusable by script so a page change announces it) and its actions. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack gap="xs" mb="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2" id={PAGE_HEADING_ID} tabIndex={-1}>
          {title}
        </Title>
        <Group gap="sm">{children}</Group>
      </Group>
    </Stack>
  );
}

/** Widths at which a dialog fills the screen (Mantine's `xs` breakpoint, 576 px). */
const SMALL_SCREEN = '(max-width: 36em)';

/**
 * Mantine's `Modal`, opened while mounted (render it conditionally), with a labelled close button; it fills the
 * screen below 576 px, and when it unmounts it gives the focus back to the element that had it when it mounted (the
 * button that opened it; when one dialog replaces another, the first one's opener), or to the page's heading when that
 * element is gone. Mantine returns the focus only when `opened` turns false, which a conditionally rendered dialog
 * never does.
 */
export function ConsoleModal({ children, ...props }: Omit<ModalProps, 'opened'>) {
  const small = useMediaQuery(SMALL_SCREEN, false, { getInitialValueInEffect: false });
  useLayoutEffect(() => {
    const opener = document.activeElement;
    return () => {
      const heading = () => document.getElementById(PAGE_HEADING_ID)?.focus();
      if (!(opener instanceof HTMLElement) || opener === document.body) return heading();
      opener.focus();
      // The same commit may remove the opener (a revoked key's row loses its buttons): then the heading.
      setTimeout(() => {
        if (!opener.isConnected && document.activeElement === document.body) heading();
      });
    };
  }, []);
  return (
    <Modal opened closeButtonProps={{ 'aria-label': 'Close' }} fullScreen={small} {...props}>
      {children}
    </Modal>
  );
}
