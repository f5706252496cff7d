/**
 * Members for the member, invitation and single sign-on tests: a user of a given role added straight through the
 * repositories (as the CLI would), with a key carrying every scope the role grants.
 */
import { randomUUID } from 'node:crypto';
import { type ApiKeyScope, insertUser, type UserRole } from '../../server/repositories/tenants.js';
import { systemActor } from '../../server/services/context.js';
import type { TestServer } from './server.js';

const SCOPES: Record<UserRole, ApiKeyScope[]> = {
  owner: ['read', 'write', 'admin'],
  admin: ['read', 'write', 'admin'],
  member: ['read', 'write'],
  viewer: ['read'],
};

/** A member added by {@link addMember}. */
export interface TestMember {
  userId: string;
  email: string;
  key: string;
}

/** Adds a user with `role` and an email of their own to the tenant, and gives them a key of that role. */
export async function addMember(server: TestServer, tenantId: string, role: UserRole): Promise<TestMember> {
  const id = randomUUID();
  const email = `${role}-${id.slice(0, 8)}@example.com`;
  await insertUser(
    server.db.knex,
    { id, tenantId, name: `A ${role}`, email, role, createdAt: new Date().toISOString() },
    email,
  );
  const { key } = await server.meridian.services.apiKeys.create(systemActor(tenantId), {
    name: `${role} key`,
    scopes: SCOPES[role],
    userId: id,
  });
  return { userId: id, email, key };
}
