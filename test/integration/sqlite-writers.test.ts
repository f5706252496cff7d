/**
 * Two processes on one SQLite file (the README's `npm run cli -- import` while `npm start` runs): a transaction that
 * reads and then writes must not fail with SQLITE_BUSY because another process committed in between. In WAL mode a
 * deferred `BEGIN` takes its snapshot at the first read, and a write after another process's commit cannot be retried
 * by the busy handler (SQLITE_BUSY_SNAPSHOT); `BEGIN IMMEDIATE` takes the write lock up front, so the other process
 * waits (busy_timeout) instead.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { type Database, openDatabase } from '../../server/repositories/db.js';

/** Runs one INSERT from another process on the same file, as a second Meridian process would. */
function writeFromAnotherProcess(file: string): Promise<{ code: number | null; stderr: string }> {
  const script = `
    import { openDatabase } from './server/repositories/db.ts';
    const db = openDatabase({ databaseUrl: null, sqliteFile: ${JSON.stringify(file)} });
    await db.knex('writers').insert({ who: 'other process' });
    await db.close();
  `;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('SQLite: two processes writing one file', () => {
  let dir: string;
  let db: Database;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-writers-'));
    db = openDatabase({ databaseUrl: null, sqliteFile: path.join(dir, 'm.sqlite') });
    await db.knex.schema.createTable('writers', (t) => {
      t.increments('id');
      t.string('who');
    });
  });
  afterEach(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a read-then-write transaction survives a commit of another process between its read and its write', async () => {
    let other: Promise<{ code: number | null; stderr: string }> | undefined;
    await db.knex.transaction(async (trx) => {
      const before = await trx('writers').count({ n: '*' });
      expect(Number(before[0]?.n)).to.equal(0);
      // The other process tries to write now, while this transaction is open; give it time to reach SQLite.
      other = writeFromAnotherProcess(path.join(dir, 'm.sqlite'));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await trx('writers').insert({ who: 'this process' });
    });
    const result = await (other as Promise<{ code: number | null; stderr: string }>);
    expect(result.stderr).to.equal('');
    expect(result.code).to.equal(0);
    const rows = await db.knex('writers').orderBy('id').pluck('who');
    expect(rows).to.deep.equal(['this process', 'other process']);
  });
});
