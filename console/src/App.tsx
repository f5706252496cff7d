/**
 * The console's top level: the session decides between the sign-in pages (sign-in, first-run setup, two-factor
 * challenge) and the signed-in settings area.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { createClient } from './api';
import { authCall, currentSession, TokenSource } from './auth';
import { Loading, ProblemAlert } from './components';
import { type Console, ConsoleContext } from './context';
import { AcceptInvitationPage } from './pages/AcceptInvitation';
import { SetupPage } from './pages/Setup';
import { SignInPage } from './pages/SignIn';
import { TwoFactorPage } from './pages/TwoFactor';
import { EnrolPage } from './pages/TwoFactorEnrolment';
import { navigate, usePath } from './router';
import { Shell } from './Shell';

/** The pages one can open without a session. */
const PUBLIC = ['/sign-in', '/setup', '/two-factor', '/two-factor/enrol', '/invitations/accept'];

export function App() {
  const path = usePath();
  const queryClient = useQueryClient();
  const session = useQuery({ queryKey: ['session'], queryFn: currentSession });
  const tokens = useMemo(() => new TokenSource(), []);
  const client = useMemo(() => createClient(tokens), [tokens]);
  const state = session.data;
  const stage = state?.session.stage;

  useEffect(() => {
    if (session.isPending || session.isError || PUBLIC.includes(path)) return;
    if (!state) navigate('/sign-in', { replace: true });
    else if (stage === 'two_factor') navigate('/two-factor', { replace: true });
    else if (stage === 'enrol_two_factor') navigate('/two-factor/enrol', { replace: true });
    else if (path === '/') navigate('/settings/api-keys', { replace: true });
  }, [session.isPending, session.isError, state, stage, path]);

  if (path === '/setup') return <SetupPage />;
  if (path === '/sign-in') return <SignInPage />;
  if (path === '/two-factor') return <TwoFactorPage />;
  if (path === '/invitations/accept') return <AcceptInvitationPage />;
  if (path === '/two-factor/enrol') return <EnrolPage />;
  if (session.isPending) return <Loading what="your session" />;
  if (session.isError) return <ProblemAlert error={session.error} />;
  if (!state || stage !== 'active') return <Loading what="the sign-in page" />;

  const role = state.user.role;
  const value: Console = {
    session: state,
    client,
    isAdmin: role === 'owner' || role === 'admin',
    canWrite: role !== 'viewer',
    async signOut() {
      await authCall('POST', '/sign-out', {});
      tokens.clear();
      queryClient.clear();
      navigate('/sign-in');
    },
  };
  return (
    <ConsoleContext.Provider value={value}>
      <Shell path={path} />
    </ConsoleContext.Provider>
  );
}
