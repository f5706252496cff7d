import type { Knex } from 'knex';

// Invitations to join a tenant (docs/members.md, "Invitations"): only the SHA-256 hash of the one-time token is kept;
// an invitation is pending while it is neither accepted nor revoked and `expires_at` (7 days after creation) lies
// ahead. The partial order (tenant, created_at, id) serves the pending list.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('invitations', (t) => {
    t.string('id', 36).primary();
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('email', 320).notNullable();
    t.enu('role', ['owner', 'admin', 'member', 'viewer']).notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.string('invited_by', 36).nullable().references('id').inTable('users');
    t.string('expires_at', 30).notNullable();
    t.string('accepted_at', 30).nullable();
    t.string('accepted_user_id', 36).nullable().references('id').inTable('users');
    t.string('revoked_at', 30).nullable();
    t.string('created_at', 30).notNullable();
    t.index(['tenant_id', 'created_at', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('invitations');
}
