/**
 * Handlers of the Members and Invitations tags and of `/tenant/sso` (docs/members.md): validated input → one
 * service call → a declared result (../result.ts). The caller's role (the user behind the key or console token)
 * bounds what they may change. Links (invitations, single sign-on) start with `MERIDIAN_PUBLIC_URL`, or without it
 * with the origin the request came to.
 */
import type { Services } from '../../services/index.js';
import { created, noContent, ok, page } from '../result.js';
import type { HandlerMap } from '../types.js';

/** Handlers for the member, invitation and single sign-on settings operations. */
export function peopleHandlers(
  services: Services,
): Pick<
  HandlerMap,
  | 'listMembers'
  | 'getMember'
  | 'updateMember'
  | 'removeMember'
  | 'listInvitations'
  | 'createInvitation'
  | 'revokeInvitation'
  | 'getTenantSso'
  | 'updateTenantSso'
  | 'deleteTenantSso'
> {
  const { members, invitations, ssoSettings } = services;
  return {
    async listMembers(ctx) {
      return page(ctx, (_filter, p) => members.list(ctx.actor, p));
    },
    async getMember({ actor, path }) {
      return ok(await members.get(actor, path.id));
    },
    async updateMember({ actor, principal, path, body }) {
      return ok(await members.changeRole(actor, principal.user.role, path.id, body.role));
    },
    async removeMember({ actor, principal, path }) {
      await members.remove(actor, principal.user.role, path.id);
      return noContent();
    },
    async listInvitations(ctx) {
      return page(ctx, (_filter, p) => invitations.list(ctx.actor, p));
    },
    async createInvitation(ctx) {
      const origin = new URL(ctx.baseUrl).origin;
      const invitation = await invitations.create(ctx.actor, ctx.principal.user.role, ctx.body, origin);
      return created(ctx, invitation, '/invitations/{id}');
    },
    async revokeInvitation({ actor, path }) {
      await invitations.revoke(actor, path.id);
      return noContent();
    },
    async getTenantSso({ actor, baseUrl }) {
      return ok(await ssoSettings.get(actor, new URL(baseUrl).origin));
    },
    async updateTenantSso({ actor, principal, body, baseUrl }) {
      return ok(await ssoSettings.put(actor, principal.tenant, body, new URL(baseUrl).origin));
    },
    async deleteTenantSso({ actor }) {
      await ssoSettings.delete(actor);
      return noContent();
    },
  };
}
