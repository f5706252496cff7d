/**
 * What each role may do to members and invitations, as the API decides it (docs/members.md, "Members and roles";
 * server/services/people/member-rules.ts): an owner manages everyone and gives every role; an admin manages and
 * gives admin, member and viewer. The console offers only these; the API refuses the rest anyway (403).
 */
import type { UserRole } from '@meridian/sdk';

/** The roles, most powerful first, with what each may do (docs/accounts.md, "Roles"). */
export const ROLES: { role: UserRole; label: string; allows: string }[] = [
  { role: 'owner', label: 'Owner', allows: 'Everything, including members’ roles and security settings.' },
  { role: 'admin', label: 'Admin', allows: 'API keys, webhooks, settings, members below owner, audit log.' },
  { role: 'member', label: 'Member', allows: 'Project data, agent runs, their own API keys.' },
  { role: 'viewer', label: 'Viewer', allows: 'Reading and Ask; no changes.' },
];

/** The roles a caller of `role` may give (to an invitation or a member). */
export function assignableRoles(role: UserRole): UserRole[] {
  if (role === 'owner') return ['owner', 'admin', 'member', 'viewer'];
  if (role === 'admin') return ['admin', 'member', 'viewer'];
  return [];
}

/** Whether a caller of `caller` may change or remove a member whose role is `target`. */
export function mayManage(caller: UserRole, target: UserRole): boolean {
  return caller === 'owner' || (caller === 'admin' && target !== 'owner');
}

/** A role's label ("Viewer"). */
export function roleLabel(role: UserRole): string {
  return ROLES.find((r) => r.role === role)?.label ?? role;
}
