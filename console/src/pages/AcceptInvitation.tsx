/**
 * Accepting an invitation (`/console/invitations/accept#token=mi_…`, docs/members.md "Invitations"): the token is
 * read from the fragment and removed from the address bar at once; it is only ever sent in a JSON body to
 * `/auth/invitations/*` (never in a query string, never logged). The page first asks what the invitation offers
 * (`POST /auth/invitations/preview`: tenant, email, role, expiry), then the person chooses a name and a password
 * (`POST /auth/invitations/accept`; the password rules are the server's, its problem shown as is) and lands in the
 * console, signed in. A used, revoked or expired link gets one clear message.
 */
import { Alert, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { authCall, ProblemError, type SignInResult } from '../auth';
import { Loading, ProblemAlert, When } from '../components';
import { navigate } from '../router';
import { AuthCard } from './AuthCard';
import { roleLabel } from './member-roles';

/** Spec `InvitationPreview`. */
interface InvitationPreview {
  tenantName: string;
  email: string;
  role: 'owner' | 'admin' | 'member' | 'viewer';
  expiresAt: string;
}

/** The link's token, read once (the fragment is then cleared so it stays out of history and screenshots). */
function takeToken(): string {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
  if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  return token;
}

/** The one message for a used, revoked or expired link (the API does not say which). */
function LinkNotValid({ detail }: { detail?: string }) {
  return (
    <Alert color="red" title="This invitation link no longer works" role="alert">
      <Text size="sm">{detail}</Text>
      <Text size="sm" mt="xs">
        Invitation links work once and for 7 days, and stop when an admin revokes them. Ask whoever invited
        you to send a new invitation.
      </Text>
    </Alert>
  );
}

/** The accept-invitation page (`/console/invitations/accept#token=…`), open without a session. */
export function AcceptInvitationPage() {
  const queryClient = useQueryClient();
  const [token] = useState(takeToken);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const preview = useQuery({
    queryKey: ['invitation-preview'],
    queryFn: () => authCall<InvitationPreview>('POST', '/invitations/preview', { token }),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
  const accept = useMutation({
    mutationFn: () => authCall<SignInResult>('POST', '/invitations/accept', { token, name, password }),
    onSuccess: async (result) => {
      queryClient.removeQueries({ queryKey: ['invitation-preview'] });
      await queryClient.invalidateQueries({ queryKey: ['session'] });
      navigate(result.status === 'two_factor_required' ? '/two-factor' : '/settings/api-keys');
    },
  });
  const expired = (err: unknown) => err instanceof ProblemError && err.problem.status === 401;

  let body: ReactNode;
  if (!token) {
    body = (
      <Alert color="red" title="This link has no token">
        Open the whole invitation link you received (it ends in <code>#token=mi_…</code>).
      </Alert>
    );
  } else if (preview.isPending) {
    body = <Loading what="the invitation" />;
  } else if (preview.isError) {
    body = expired(preview.error) ? (
      <LinkNotValid detail={(preview.error as ProblemError).problem.detail} />
    ) : (
      <ProblemAlert error={preview.error} />
    );
  } else if (accept.isError && expired(accept.error)) {
    body = <LinkNotValid detail={(accept.error as ProblemError).problem.detail} />;
  } else {
    const invitation = preview.data;
    body = (
      <form
        onSubmit={(e) => {
          e.preventDefault();
          accept.mutate();
        }}
      >
        <Stack>
          <Text>
            You are invited to join <b>{invitation.tenantName}</b> as{' '}
            <b>{roleLabel(invitation.role).toLowerCase()}</b>.
          </Text>
          <Text size="sm" c="dimmed">
            The link expires <When at={invitation.expiresAt} />. Choose your name and a password: at least 15
            characters; a long passphrase is best.
          </Text>
          <ProblemAlert error={accept.error} />
          <TextInput label="Email" value={invitation.email} readOnly autoComplete="username" />
          <TextInput
            label="Your name"
            autoComplete="name"
            required
            maxLength={200}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            data-autofocus
          />
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <Button type="submit" loading={accept.isPending}>
            Join and sign in
          </Button>
        </Stack>
      </form>
    );
  }
  return <AuthCard title="Accept invitation">{body}</AuthCard>;
}
