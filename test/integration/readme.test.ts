/**
 * The README's examples, word for word: the shell and TypeScript examples of README.md's "Calling it" section are
 * read from README.md at test time (never copied here) and run against `npm start` (server/main.ts as a child
 * process over a fresh SQLite file, so with the NYC demo import), the way a newcomer runs them after exporting the
 * key `npm start` printed. The one block that holds the `mk_live_…` placeholder is the reader's own step: the test
 * sets `MERIDIAN_API_KEY` instead. The Python example runs in the Python SDK's suite
 * (sdk-python/tests/test_typing.py), which has the SDK installed.
 *
 * `curl` is wrapped so that an HTTP error fails the script (`--fail-with-body`) and an empty `Idempotency-Key`
 * (what `$(uuidgen)` gives where uuidgen is not installed) is refused. SQLite only: the README is about `npm
 * start`, whose database is the embedded file.
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import knexFactory from 'knex';
import { startApi, startWorker, stopProcess } from '../support/processes.js';
import { TEST_DB } from '../support/server.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** The fenced blocks of one language in the README section that starts with `heading` (up to the next `## `). */
export function readmeBlocks(markdown: string, heading: string, lang: string): string[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README.md has no "${heading}" section`);
  const end = markdown.indexOf('\n## ', start + heading.length + 2);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map(
    (m) => m[1] as string,
  );
}

(TEST_DB === 'sqlite' ? describe : describe.skip)(
  'README examples, verbatim, against npm start',
  function () {
    this.timeout(400_000);
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    let dir: string;
    let main: ChildProcess;
    let env: NodeJS.ProcessEnv;

    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-readme-'));
      const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
      const key = `mk_live_${[...randomBytes(40)].map((b) => alphabet[b % 62]).join('')}`;
      const database = path.join(dir, 'demo.sqlite');
      const started = await startApi(
        { DATABASE_URL: '', MERIDIAN_SQLITE_FILE: database, MERIDIAN_API_KEY: key },
        180_000,
      );
      main = started.child;
      // curl that fails on any HTTP error and on an empty Idempotency-Key, then runs the real curl.
      const bin = path.join(dir, 'bin');
      fs.mkdirSync(bin);
      const realCurl = (await run('bash', ['-c', 'command -v curl'])).stdout.trim();
      fs.writeFileSync(
        path.join(bin, 'curl'),
        `#!/usr/bin/env bash\nfor a in "$@"; do\n  if [[ "$a" =~ ^Idempotency-Key:\\ *$ ]]; then echo "curl: empty Idempotency-Key" >&2; exit 97; fi\ndone\nexec ${realCurl} --fail-with-body "$@"\n`,
        { mode: 0o755 },
      );
      env = {
        ...process.env,
        // The reader's shell: node (any version npm runs on) and curl on PATH, the key exported.
        PATH: `${bin}:${path.dirname(process.execPath)}:${process.env.PATH}`,
        MERIDIAN_API_KEY: key,
        MERIDIAN_BASE_URL: started.baseUrl,
        // `npm run cli` in the README works on npm start's database: the same file here, never ./data.
        MERIDIAN_SQLITE_FILE: database,
        DATABASE_URL: '',
        NODE_ENV: 'test',
      };
    });
    after(async () => {
      if (main && main.exitCode === null) {
        main.removeAllListeners('exit');
        const exited = new Promise((resolve) => main.once('exit', resolve));
        main.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('runs the shell examples of "Calling it" as they are: curl, then the administration commands', async () => {
      const blocks = readmeBlocks(readme, '## Calling it', 'sh');
      const setup = blocks.filter((b) => b.includes('mk_live_…'));
      expect(setup, 'one block holds the reader’s own key').to.have.length(1);
      expect(setup[0]?.trim()).to.match(/^export MERIDIAN_API_KEY=mk_live_…/);
      const runnable = blocks.filter((b) => !b.includes('mk_live_…'));
      const [curls, admin] = [
        runnable.filter((b) => b.includes('curl ')),
        runnable.filter((b) => !b.includes('curl ')),
      ];
      expect([curls.length, admin.length]).to.deep.equal([1, 1]);
      for (const block of runnable) expect(block).to.not.match(/uuidgen/);

      const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', curls[0] as string], {
        env,
        cwd: ROOT,
      });
      // One JSON document per request that prints one.
      const docs = stdout
        .replace(/}\s*{/g, '}\n{')
        .split('\n')
        .filter((l) => l.trim().startsWith('{'))
        .map((l) => JSON.parse(l));
      expect(docs).to.have.length(10);
      const [brooklyn, troubled, byId, search, reports, risk, report, audit, patched, answer] = docs;
      expect(brooklyn.data.length).to.be.greaterThan(0);
      for (const p of brooklyn.data) expect(p).to.include({ status: 'AT_RISK', managingAgency: 'DEP' });
      // A filter repeated: projects at risk or off track (OR), the exact total of both.
      expect(troubled.data).to.have.length(5);
      for (const p of troubled.data) expect(['AT_RISK', 'OFF_TRACK']).to.include(p.status);
      expect(troubled.pagination.total).to.be.greaterThan(5);
      // Records by id: the project asked for; the unknown id is absent.
      expect(byId.data.map((p: { status: string }) => p.status)).to.deep.equal(['AT_RISK']);
      expect(byId.pagination.total).to.equal(1);
      // q and sort: water mains by name or description, the largest budget first.
      expect(search.data.length).to.be.greaterThan(1);
      for (const p of search.data)
        expect(`${p.name} ${p.description}`.toLowerCase()).to.include('water main');
      const budgets = search.data.map((p: { budget: number }) => p.budget);
      expect(budgets).to.deep.equal([...budgets].sort((a, b) => b - a));
      expect(reports.data).to.have.length(3);
      expect(reports.data[0].source).to.match(/^import:nyc-capital-projects/);
      expect(reports.data[0].asOf >= reports.data[1].asOf).to.equal(true);
      expect(risk).to.include({ title: 'Utility conflicts delay excavation', score: 12 });
      expect(report).to.include({
        asOf: '2019-10-01',
        status: 'AT_RISK',
        actualCost: 1250000,
        progress: 40,
        applied: true,
      });
      // The audit log newest first: the entry of the status report, the last write before it.
      expect(audit.data).to.have.length(1);
      expect(audit.data[0]).to.include({ resourceType: 'status_report', resourceId: report.id });
      expect(patched).to.include({
        id: risk.projectId,
        status: 'AT_RISK',
        actualCost: 1250000,
        progress: 45,
      });
      // The Ask example: the five largest overruns, each cited.
      expect(answer.engine).to.equal('embedded');
      expect(answer.citations.map((c: { index: number; type: string }) => [c.index, c.type])).to.deep.equal([
        [1, 'project'],
        [2, 'project'],
        [3, 'project'],
        [4, 'project'],
        [5, 'project'],
      ]);
      for (const n of [1, 2, 3, 4, 5]) expect(answer.answer).to.include(`[${n}]`);

      // The administration commands, from the repository, on the same database as the server.
      const out = await run('bash', ['-euo', 'pipefail', '-c', admin[0] as string], { env, cwd: ROOT });
      expect(out.stdout).to.match(/API key \(shown once, store it now\): mk_live_/);
      expect(out.stdout).to.match(/2259 rows read, 2189 status reports stored .* 355 projects created/);
      // …in npm start's database (the one the server serves), not in a ./data file of the repository.
      const db = knexFactory({
        client: 'better-sqlite3',
        connection: { filename: env.MERIDIAN_SQLITE_FILE as string },
        useNullAsDefault: true,
      });
      try {
        expect(await db('tenants').where({ name: 'Acme PMO' }).count({ n: '*' })).to.deep.equal([{ n: 1 }]);
      } finally {
        await db.destroy();
      }
    });

    it('runs the shell example of "Agents" as it is: a budget-health run, polled, its first finding and citation', async () => {
      const blocks = readmeBlocks(readme, '## Agents', 'sh');
      expect(blocks).to.have.length(1);
      // A worker runs the agent (`npm run worker` on npm start's database; the test server, NODE_ENV=test, runs
      // none in process), for this example only.
      const worker = await startWorker({ ...env, MERIDIAN_WORKER_POLL_MS: '100' });
      let stdout: string;
      try {
        ({ stdout } = await run('bash', ['-euo', 'pipefail', '-c', blocks[0] as string], {
          env,
          cwd: ROOT,
          timeout: 120_000,
        }));
      } finally {
        await stopProcess(worker);
      }
      const [detail, url] = stdout.trim().split('\n');
      // The largest forecast overrun of the NYC demo, with its figures and its [n] citation.
      expect(detail).to.match(
        /^Forecast at completion above budget: .+ budget [\d,]+ USD, forecast [\d,]+ USD, overrun [\d,]+ USD .*\[1\]/,
      );
      expect(url).to.match(/^\/v1\/projects\/[0-9a-f-]{36}$/);
    });

    it('typechecks and runs the TypeScript example as it is', async () => {
      const [snippet] = readmeBlocks(
        readme,
        '### TypeScript (`@meridian/sdk`, beta — [sdk-ts/README.md](sdk-ts/README.md))',
        'ts',
      );
      expect(snippet).to.be.a('string');
      // The reader's project: the SDK built and installed (here: the workspace link), the examples' strict tsconfig.
      await run('npm', ['run', '-s', 'build', '-w', '@meridian/sdk'], { cwd: ROOT });
      const work = path.join(dir, 'ts');
      fs.mkdirSync(work);
      fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(work, 'node_modules'));
      fs.writeFileSync(path.join(work, 'readme.mts'), snippet as string);
      const tsconfig = JSON.parse(
        fs.readFileSync(path.join(ROOT, 'examples', 'typescript', 'tsconfig.json'), 'utf8'),
      );
      fs.writeFileSync(
        path.join(work, 'tsconfig.json'),
        JSON.stringify({ ...tsconfig, include: ['readme.mts'] }),
      );
      await run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', work]);
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'readme.mts'], { cwd: work, env });
      const lines = stdout.trim().split('\n');
      expect(lines[0]).to.match(/^NYC-\d+ .+ Brooklyn|^NYC-\d+ /);
      expect(lines.at(-1)).to.equal('16 HIGH');
      // withResponse(): the request id of the create, as the server's X-Request-Id.
      expect(lines.at(-2)).to.be.a('string').and.not.equal('null');
      expect(lines.some((l) => /^2019-\d\d-\d\d (ON_TRACK|AT_RISK|OFF_TRACK|PLANNED) /.test(l))).to.equal(
        true,
      );
    });
  },
);
