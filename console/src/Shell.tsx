/**
 * The signed-in layout: a skip link to the page, a header (tenant, user, theme switch, sign-out), the settings
 * navigation (a drawer behind a burger below 768 px, out of the tab order while closed) and the page of the current
 * path. A page change moves the focus to the new page's heading, so screen readers announce it, and names the
 * document after the page (docs/console.md, "Accessibility and small screens").
 */
import {
  ActionIcon,
  Anchor,
  AppShell,
  Burger,
  Button,
  Group,
  NavLink,
  Text,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import { PAGE_HEADING_ID } from './components';
import { useConsole } from './context';
import { AccountPage } from './pages/Account';
import { ApiKeysPage } from './pages/ApiKeys';
import { AuditLogPage } from './pages/AuditLog';
import { GeneralPage } from './pages/General';
import { MembersPage } from './pages/Members';
import { WebhooksPage } from './pages/Webhooks';
import { navigate } from './router';

interface Section {
  path: string;
  label: string;
  /** Shown only to roles with the `admin` scope (the page's every call needs it). */
  adminOnly?: boolean;
}

const SECTIONS: Section[] = [
  { path: '/settings/api-keys', label: 'API keys' },
  { path: '/settings/webhooks', label: 'Webhooks' },
  { path: '/settings/general', label: 'General' },
  { path: '/settings/members', label: 'Members', adminOnly: true },
  { path: '/settings/audit-log', label: 'Audit log' },
  { path: '/account', label: 'Account' },
];

export function Shell({ path }: { path: string }) {
  const [opened, { toggle, close }] = useDisclosure();
  const { session, signOut, isAdmin } = useConsole();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const narrow = useMediaQuery('(max-width: 48em)', undefined, { getInitialValueInEffect: false });
  const first = useRef(true);
  const label = SECTIONS.find((s) => s.path === path)?.label;
  useEffect(() => {
    document.title = label ? `${label} · Meridian` : 'Meridian';
    if (first.current) first.current = false;
    else document.getElementById(PAGE_HEADING_ID)?.focus();
  }, [label]);
  const go = (to: string) => {
    navigate(to);
    close();
  };
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <a href="#main-content" className="skip-link">
        Skip to main content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Navigation"
              aria-expanded={opened}
              aria-controls="settings-navigation"
            />
            <Text fw={700}>Meridian</Text>
            <Text c="dimmed" visibleFrom="xs" truncate>
              {session.tenant.name}
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={scheme === 'dark' ? 'Use the light theme' : 'Use the dark theme'}
              onClick={() => setColorScheme(scheme === 'dark' ? 'light' : 'dark')}
            >
              <span aria-hidden="true">{scheme === 'dark' ? '☀' : '☾'}</span>
            </ActionIcon>
            <Anchor
              size="sm"
              visibleFrom="sm"
              href="/console/account"
              aria-label={`Your account: ${session.user.name}`}
              data-testid="user-menu"
              onClick={(e) => {
                e.preventDefault();
                go('/account');
              }}
            >
              {session.user.name}
            </Anchor>
            <Button variant="subtle" size="compact-sm" onClick={() => void signOut()}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar
        p="xs"
        component="nav"
        aria-label="Settings"
        id="settings-navigation"
        inert={narrow && !opened}
      >
        <Text size="xs" c="dimmed" tt="uppercase" fw={700} px="sm" py="xs">
          Settings
        </Text>
        {SECTIONS.filter((s) => isAdmin || !s.adminOnly).map((s) => (
          <NavLink
            key={s.path}
            href={`/console${s.path}`}
            label={s.label}
            active={path === s.path}
            variant="filled"
            aria-current={path === s.path ? 'page' : undefined}
            onClick={(e) => {
              e.preventDefault();
              go(s.path);
            }}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main id="main-content" tabIndex={-1}>
        <Page path={path} />
      </AppShell.Main>
    </AppShell>
  );
}

function Page({ path }: { path: string }) {
  switch (path) {
    case '/settings/api-keys':
      return <ApiKeysPage />;
    case '/settings/webhooks':
      return <WebhooksPage />;
    case '/settings/general':
      return <GeneralPage />;
    case '/settings/audit-log':
      return <AuditLogPage />;
    case '/settings/members':
      return <MembersPage />;
    case '/account':
      return <AccountPage />;
    default:
      return <Text>This page does not exist.</Text>;
  }
}
