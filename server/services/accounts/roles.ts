/**
 * Roles and the scopes they grant (docs/accounts.md, "Roles"): every operation's `x-required-scope` keeps deciding,
 * and a role is the most its user's credentials may carry: `owner` and `admin` → read, write, admin; `member` →
 * read, write; `viewer` → read. A key's scopes beyond its user's role are ignored when it authenticates, so a
 * demotion limits the user's keys at once.
 */
import type { ApiKeyScope, UserRole } from '../../repositories/tenants.js';

/** Every role, most powerful first. */
export const ROLES: readonly UserRole[] = ['owner', 'admin', 'member', 'viewer'];

const SCOPES: Record<UserRole, ApiKeyScope[]> = {
  owner: ['read', 'write', 'admin'],
  admin: ['read', 'write', 'admin'],
  member: ['read', 'write'],
  viewer: ['read'],
};

/** The scopes a role grants. */
export function scopesOfRole(role: UserRole): ApiKeyScope[] {
  return [...SCOPES[role]];
}

/** `scopes` less those the role does not grant. */
export function withinRole(scopes: readonly ApiKeyScope[], role: UserRole): ApiKeyScope[] {
  const granted = SCOPES[role];
  return scopes.filter((s) => granted.includes(s));
}

/** Whether `value` is a role. */
export function isRole(value: string): value is UserRole {
  return (ROLES as readonly string[]).includes(value);
}
