import type { Knex } from 'knex';

// Accounts and sessions (docs/accounts.md): users gain a role, a normalised email (unique per deployment), a
// password hash (null: not yet set, or single sign-on only), a TOTP secret sealed by the secret box, and sign-in
// times; the console's server-side sessions, one-time links (setup, reset), recovery codes and console access
// tokens get tables of their own. Every secret a browser or person holds is stored as its SHA-256 hash only.
// Instants are ISO-8601 UTC text, as everywhere (20261122000100).
//
// Existing users (the demo's "Demo PMO lead", the CLI's tenant admins) become owners without a password. Their
// email, when set, is normalised (NFKC, trimmed, lower case); when two users share an email, the oldest keeps it
// as sign-in address and the others get none (an owner gives them one with `users create` / a setup link).

const ROLES = "('owner', 'admin', 'member', 'viewer')";

export async function up(knex: Knex): Promise<void> {
  // Plain ALTER TABLE … ADD COLUMN on both databases (never a SQLite table rebuild under referencing tables:
  // knex #6213, docs/toolchain.md).
  await knex.raw(
    `ALTER TABLE users ADD COLUMN role varchar(16) NOT NULL DEFAULT 'member' CHECK (role IN ${ROLES})`,
  );
  await knex.schema.alterTable('users', (t) => {
    t.string('email_normalized', 320).nullable();
    t.text('password_hash').nullable();
    t.text('totp_secret').nullable();
    t.string('totp_enabled_at', 30).nullable();
    // The last TOTP time step accepted, so a code is never accepted twice (RFC 6238 §5.2).
    t.bigInteger('totp_last_step').nullable();
    t.string('last_signed_in_at', 30).nullable();
    t.string('deactivated_at', 30).nullable();
  });
  await knex('users').update({ role: 'owner' });
  const users = (await knex('users')
    .whereNotNull('email')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select('id', 'email')) as { id: string; email: string }[];
  const seen = new Set<string>();
  for (const user of users) {
    const normalized = user.email.normalize('NFKC').trim().toLowerCase();
    if (normalized === '' || seen.has(normalized)) continue;
    seen.add(normalized);
    await knex('users').where({ id: user.id }).update({ email_normalized: normalized });
  }
  await knex.schema.alterTable('users', (t) => {
    t.unique(['email_normalized'], { indexName: 'users_email_normalized_unique' });
  });

  await knex.schema.createTable('sessions', (t) => {
    t.string('id', 36).primary();
    t.string('id_hash', 64).notNullable().unique();
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('user_id', 36).notNullable().references('id').inTable('users');
    // `active`; `two_factor` (password checked, the second factor awaited); `enrol_two_factor` (the tenant
    // requires a second factor the user has not enrolled yet).
    t.string('stage', 20).notNullable().checkIn(['active', 'two_factor', 'enrol_two_factor']);
    t.string('created_at', 30).notNullable();
    t.string('last_seen_at', 30).notNullable();
    t.string('idle_expires_at', 30).notNullable();
    t.string('absolute_expires_at', 30).notNullable();
    t.string('user_agent', 512).nullable();
    t.string('address', 64).nullable();
    t.string('revoked_at', 30).nullable();
    t.index(['user_id', 'revoked_at']);
  });

  await knex.schema.createTable('one_time_links', (t) => {
    t.string('id', 36).primary();
    t.string('token_hash', 64).notNullable().unique();
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('user_id', 36).notNullable().references('id').inTable('users');
    t.string('purpose', 16).notNullable().checkIn(['setup', 'reset']);
    t.string('created_at', 30).notNullable();
    t.string('expires_at', 30).notNullable();
    t.string('used_at', 30).nullable();
    t.index(['user_id']);
  });

  await knex.schema.createTable('recovery_codes', (t) => {
    t.string('id', 36).primary();
    t.string('user_id', 36).notNullable().references('id').inTable('users');
    t.string('code_hash', 64).notNullable().unique();
    t.string('created_at', 30).notNullable();
    t.string('used_at', 30).nullable();
    t.index(['user_id']);
  });

  await knex.schema.createTable('console_tokens', (t) => {
    t.string('id', 36).primary();
    t.string('token_hash', 64).notNullable().unique();
    t.string('prefix', 16).notNullable();
    t.string('session_id', 36).notNullable().references('id').inTable('sessions');
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('user_id', 36).notNullable().references('id').inTable('users');
    t.string('created_at', 30).notNullable();
    t.string('expires_at', 30).notNullable();
    t.index(['session_id']);
  });

  // Sign-in throttling counters in the shape rate-limiter-flexible's SQL stores use (key, points, expire in epoch
  // ms); created here so the schema is the migrations' alone (the limiter is told the table exists).
  await knex.schema.createTable('sign_in_throttle', (t) => {
    t.string('key', 255).primary();
    t.integer('points').notNullable().defaultTo(0);
    t.bigInteger('expire').nullable();
  });

  await knex.schema.alterTable('audit_logs', (t) => {
    // How the actor authenticated: `api_key`, `console` (a console access token or a console session), or null
    // for the system's own changes.
    t.string('actor_via', 16).nullable();
  });
}

// Down drops with plain ALTER TABLE … DROP COLUMN (SQLite ≥ 3.35 does it in place), never Knex's dropColumn.
export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE audit_logs DROP COLUMN actor_via');
  await knex.schema.dropTable('sign_in_throttle');
  await knex.schema.dropTable('console_tokens');
  await knex.schema.dropTable('recovery_codes');
  await knex.schema.dropTable('one_time_links');
  await knex.schema.dropTable('sessions');
  // A unique index on SQLite, a unique constraint on Postgres: Knex drops either in place.
  await knex.schema.alterTable('users', (t) => {
    t.dropUnique(['email_normalized'], 'users_email_normalized_unique');
  });
  for (const column of [
    'deactivated_at',
    'last_signed_in_at',
    'totp_enabled_at',
    'totp_last_step',
    'totp_secret',
    'password_hash',
    'email_normalized',
    'role',
  ])
    await knex.raw(`ALTER TABLE users DROP COLUMN ${column}`);
}
