import type { Knex } from 'knex';

// The audit log is append-only (docs/design.md): the code has no update or delete path, and the database refuses
// UPDATE and DELETE on the table too, on Postgres and on SQLite alike.
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') {
    await knex.raw(`
      CREATE FUNCTION audit_logs_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_logs is append-only: % refused', TG_OP;
      END $$;
    `);
    await knex.raw(`
      CREATE TRIGGER audit_logs_append_only BEFORE UPDATE OR DELETE ON audit_logs
      FOR EACH ROW EXECUTE FUNCTION audit_logs_append_only();
    `);
    return;
  }
  await knex.raw(`
    CREATE TRIGGER audit_logs_no_update BEFORE UPDATE ON audit_logs
    BEGIN SELECT RAISE(ABORT, 'audit_logs is append-only: UPDATE refused'); END;
  `);
  await knex.raw(`
    CREATE TRIGGER audit_logs_no_delete BEFORE DELETE ON audit_logs
    BEGIN SELECT RAISE(ABORT, 'audit_logs is append-only: DELETE refused'); END;
  `);
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') {
    await knex.raw('DROP TRIGGER audit_logs_append_only ON audit_logs');
    await knex.raw('DROP FUNCTION audit_logs_append_only()');
    return;
  }
  await knex.raw('DROP TRIGGER audit_logs_no_update');
  await knex.raw('DROP TRIGGER audit_logs_no_delete');
}
