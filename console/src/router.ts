/**
 * The console's routes: paths under `/console`, kept in the address bar with the History API (links work, the
 * browser's back button works, a reload lands on the same page; the server answers the app for every such path).
 */
import { useSyncExternalStore } from 'react';

/** The console's base path. */
export const BASE = '/console';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  return () => window.removeEventListener('popstate', onChange);
}

/** The current path below `/console` (e.g. `/settings/api-keys`), re-rendering on navigation. */
export function usePath(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname.slice(BASE.length) || '/');
}

/** Goes to a path below `/console` (replacing the history entry when asked). */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = `${BASE}${to}`;
  if (options.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  window.dispatchEvent(new PopStateEvent('popstate'));
}
