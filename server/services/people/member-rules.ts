/**
 * Who may change whom (docs/members.md, "Members and roles"): an `owner` manages everyone and gives every role; an
 * `admin` manages members below owner and gives `admin`, `member` or `viewer`; `member` and `viewer` manage no one
 * (their credentials never carry the `admin` scope these operations need, so this is the second line).
 */
import type { UserRole } from '../../repositories/tenants.js';
import { AppError } from '../errors.js';

/**
 * Checks that a caller of role `caller` may act on a member of role `target` (null: a new person, as in an
 * invitation) and, when given, give the role `to`.
 * @throws AppError 403 `forbidden` naming the rule.
 */
export function assertMayManage(caller: UserRole, target: UserRole | null, to?: UserRole): void {
  if (caller === 'owner') return;
  if (caller !== 'admin')
    throw new AppError('forbidden', 'Only owners and admins manage members and invitations.');
  if (target === 'owner') throw new AppError('forbidden', 'Only an owner can change or remove an owner.');
  if (to === 'owner') throw new AppError('forbidden', 'Only an owner can make someone an owner.');
}
