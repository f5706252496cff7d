/**
 * `npm run migrate` / `node dist/migrate.js`: applies the pending migrations and exits (docs/deploy.md,
 * "Upgrades": migrations only go forward, in a step of their own before the new version's processes start).
 * Several at once are safe: Knex holds its migration lock.
 */
import { loadConfig } from './config.js';
import { SecretBox } from './crypto/secret-box.js';
import { startupFailure } from './lifecycle.js';
import { migrate, openDatabase, pendingMigrations } from './repositories/db.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const db = openDatabase(config);
  try {
    const pending = await pendingMigrations(db);
    await migrate(db, { secrets: new SecretBox(config.secretKeys) });
    process.stdout.write(
      `meridian-migrate: ${pending.length} migration(s) applied to ${db.dialect === 'sqlite' ? config.sqliteFile : 'postgres (DATABASE_URL)'}${pending.length ? ` (last: ${pending.at(-1)})` : ''}\n`,
    );
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(`meridian-migrate: failed: ${startupFailure(err)}`);
  process.exit(1);
});
