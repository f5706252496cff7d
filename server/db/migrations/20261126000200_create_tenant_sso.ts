import type { Knex } from 'knex';

// A tenant's OpenID Connect provider for single sign-on (docs/members.md): at most one per tenant. The client secret is
// sealed with the secret box (server/crypto/secret-box.ts, context `tenant_sso:<tenant id>`), never stored in the
// clear; allowed email domains are a JSON array as text, lower-case. `password_sign_in` false refuses password
// sign-in for the tenant's accounts.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tenant_sso', (t) => {
    t.string('tenant_id', 36).primary().references('id').inTable('tenants');
    t.string('issuer_url', 2048).notNullable();
    t.string('client_id', 255).notNullable();
    t.text('client_secret').notNullable();
    t.text('allowed_domains').notNullable();
    t.enu('default_role', ['admin', 'member', 'viewer']).notNullable();
    t.boolean('password_sign_in').notNullable().defaultTo(true);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('tenant_sso');
}
