/**
 * What every page of the signed-in console shares: the user and tenant, the SDK client, and what the role allows
 * (docs/accounts.md, "Roles"), so pages offer only the actions the API would accept.
 */
import type { Meridian } from '@meridian/sdk';
import { createContext, useContext } from 'react';
import type { SessionState } from './auth';

/** The signed-in console's shared state. */
export interface Console {
  session: SessionState;
  client: Meridian;
  /** The role carries the `admin` scope (owner, admin). */
  isAdmin: boolean;
  /** The role carries the `write` scope (owner, admin, member). */
  canWrite: boolean;
  signOut(): Promise<void>;
}

export const ConsoleContext = createContext<Console | null>(null);

/** The signed-in console. @throws Error outside a signed-in page. */
export function useConsole(): Console {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole outside the signed-in console');
  return value;
}
