import type { Knex } from 'knex';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { MigrationContext } from '../../repositories/db.js';

// Webhook signing secrets at rest (docs/webhooks.md, "Events and webhooks": "Secrets at rest"): `secret` and
// `previous_secret` of every endpoint stored before encryption are sealed (AES-256-GCM under MERIDIAN_SECRET_KEY,
// bound to the endpoint's row, as server/services/webhooks/secrets.ts seals new ones). The key comes from the
// migration runner (`migrate(db, { secrets })`, given by `npm start`, `npm run worker` and `npm run cli -- migrate`);
// a database with secrets to seal and no key refuses to migrate rather than leave them readable. No column changes:
// the sealed form is text. Down opens them again (it needs the key that sealed them).

const CONTEXT = (id: string) => `webhook_endpoints:${id}`;

async function rewrite(
  knex: Knex,
  context: MigrationContext | undefined,
  change: (secrets: SecretBox, value: string, id: string) => string,
  needed: (value: string) => boolean,
): Promise<void> {
  const rows = (await knex('webhook_endpoints').select('id', 'secret', 'previous_secret')) as {
    id: string;
    secret: string;
    previous_secret: string | null;
  }[];
  const todo = rows.filter(
    (r) => needed(r.secret) || (r.previous_secret !== null && needed(r.previous_secret)),
  );
  if (todo.length === 0) return;
  const secrets = context?.secrets;
  if (!secrets)
    throw new Error(
      `${todo.length} webhook endpoint(s) hold secrets to re-encrypt: run the migration with MERIDIAN_SECRET_KEY set (npm run cli -- migrate)`,
    );
  for (const row of todo) {
    await knex('webhook_endpoints')
      .where({ id: row.id })
      .update({
        secret: needed(row.secret) ? change(secrets, row.secret, row.id) : row.secret,
        previous_secret:
          row.previous_secret !== null && needed(row.previous_secret)
            ? change(secrets, row.previous_secret, row.id)
            : row.previous_secret,
      });
  }
}

const SEALED = 'enc:v1:';

export async function up(knex: Knex, context?: MigrationContext): Promise<void> {
  await rewrite(
    knex,
    context,
    (secrets, value, id) => secrets.seal(value, CONTEXT(id)),
    (value) => !value.startsWith(SEALED),
  );
}

export async function down(knex: Knex, context?: MigrationContext): Promise<void> {
  await rewrite(
    knex,
    context,
    (secrets, value, id) => secrets.open(value, CONTEXT(id)),
    (value) => value.startsWith(SEALED),
  );
}
