/**
 * Query plans of every list (docs/design.md, Sorting and searching): each list operation of the spec is called over
 * HTTP without a filter and with each of its filters (every value of `sort`; `q` long enough for the trigram index
 * and too short for it); every SELECT it sends is explained on this run's database (`EXPLAIN QUERY PLAN` on SQLite,
 * `EXPLAIN (FORMAT JSON)` on Postgres with sequential scans and sorts priced out, so a plan shows one only when no
 * index can serve), and the test fails on a full scan of a tenant table or a sort the index order does not give
 * (SQLite's temporary B-tree, Postgres's Sort). The operations and filters come from the spec, so a new list or
 * filter is checked without editing this file.
 */
import { expect } from 'chai';
import { v7 as uuidv7 } from 'uuid';
import { loadSpec } from '../../server/http/spec.js';
import { client } from '../support/client.js';
import { makeProject, makeRisk } from '../support/records.js';
import { startTestServer, TEST_DB, type TestServer } from '../support/server.js';

type Json = Record<string, unknown>;

interface Captured {
  sql: string;
  bindings: unknown[];
}

describe(`query plans of every list (${TEST_DB})`, function () {
  this.timeout(120_000);
  let server: TestServer;
  let tenantTables: Set<string>;
  const captured: Captured[] = [];

  before(async () => {
    server = await startTestServer();
    server.db.knex.on('query', (q: { sql: string; bindings?: unknown[] }) => {
      // Reads only; a multi-statement string (the rate limiter's lock-then-count on Postgres) cannot be explained
      // as one and reads no tenant table.
      if (/^\s*(with|select)\b/i.test(q.sql) && !/;\s*\S/.test(q.sql))
        captured.push({ sql: q.sql, bindings: q.bindings ?? [] });
    });
    tenantTables = new Set(
      TEST_DB === 'postgres'
        ? (
            (await server.db.knex.raw(
              "SELECT table_name AS t FROM information_schema.columns WHERE column_name = 'tenant_id' AND table_schema = current_schema()",
            )) as { rows: { t: string }[] }
          ).rows.map((r) => r.t)
        : (
            (await server.db.knex.raw(
              "SELECT m.name AS t FROM sqlite_master m JOIN pragma_table_info(m.name) c WHERE m.type = 'table' AND c.name = 'tenant_id'",
            )) as { t: string }[]
          ).map((r) => r.t),
    );
  });
  after(async () => server.close());

  /**
   * What is wrong with the plan of one statement (empty when nothing). With `byIds` (a list restricted by `id`: at
   * most 100 rows, each found by primary key) sorting those rows is allowed; scanning a table still is not.
   */
  async function planProblems(query: Captured, byIds = false): Promise<string[]> {
    const problems: string[] = [];
    if (TEST_DB === 'postgres') {
      // Knex hands pg `$n` placeholders, in order: back to `?` for knex.raw.
      const sql = query.sql.replace(/\$\d+/g, '?');
      await server.db.knex.transaction(async (trx) => {
        await trx.raw('SET LOCAL enable_seqscan = off');
        await trx.raw('SET LOCAL enable_sort = off');
        const result = (await trx.raw(`EXPLAIN (FORMAT JSON) ${sql}`, query.bindings as never)) as {
          rows: { 'QUERY PLAN': { Plan: Json }[] }[];
        };
        const walk = (node: Json) => {
          const type = node['Node Type'] as string;
          const relation = node['Relation Name'] as string | undefined;
          if (type === 'Seq Scan' && relation && tenantTables.has(relation))
            problems.push(`Seq Scan on ${relation}`);
          if ((type === 'Sort' || type === 'Incremental Sort') && !byIds)
            problems.push(`${type} by ${JSON.stringify(node['Sort Key'])}`);
          for (const child of (node.Plans as Json[] | undefined) ?? []) walk(child);
        };
        walk(result.rows[0]?.['QUERY PLAN'][0]?.Plan as Json);
      });
      return problems;
    }
    const rows = (await server.db.knex.raw(`EXPLAIN QUERY PLAN ${query.sql}`, query.bindings as never)) as {
      detail: string;
    }[];
    for (const { detail } of rows) {
      const scan = /^SCAN (\w+)/.exec(detail);
      if (scan?.[1] && tenantTables.has(scan[1])) problems.push(detail);
      if (/TEMP B-TREE/.test(detail) && !byIds) problems.push(detail);
    }
    return problems;
  }

  it('no list, with any one of its filters, scans a tenant table or sorts outside an index', async () => {
    const t = await server.createTenant();
    const api = client(server.baseUrl, t.keys.admin);
    const project = await makeProject(api, { name: 'Plan checker', tags: ['Resilience'] });
    await makeRisk(api, project.id);
    const resource = (
      await api.post('createResource', '/resources', {
        body: { name: 'Plan checker', role: 'Engineer', skills: ['planning'] },
      })
    ).body;
    await api.post('createAllocation', '/allocations', {
      body: {
        resourceId: resource.id,
        projectId: project.id,
        startDate: '2026-01-05',
        endDate: '2026-03-27',
        allocationPercent: 50,
      },
    });
    await api.post('createMilestone', `/projects/${project.id}/milestones`, {
      body: { name: 'Design complete', dueDate: '2026-06-30' },
    });
    const webhook = (
      await api.post('createWebhook', '/webhooks', {
        body: { url: 'http://127.0.0.1:9/hook', events: ['risk.created'] },
      })
    ).body;

    const { document } = loadSpec();
    const deref = (node: Json): Json => {
      const ref = node.$ref as string | undefined;
      if (!ref) return node;
      return deref(
        ref
          .split('/')
          .slice(1)
          .reduce<Json>((o, k) => o[k] as Json, document as Json),
      );
    };
    // A value for each filter, from its schema or, for ids and free text, from the rows made above.
    const filterValue = (name: string, schema: Json): string => {
      const ids: Record<string, string> = {
        projectId: project.id,
        resourceId: resource.id,
        assigneeId: resource.id,
        actorId: t.userId,
      };
      const text: Record<string, string> = {
        tag: 'resilience',
        role: 'Engineer',
        skill: 'planning',
        action: 'project.created',
        resourceType: 'project',
        agentId: 'risk-assessment',
      };
      if (ids[name]) return ids[name] as string;
      if (text[name]) return text[name] as string;
      if (Array.isArray(schema.enum)) return String(schema.enum[0]);
      if (schema.type === 'boolean') return 'true';
      if (schema.format === 'date') return name === 'to' ? '2026-12-31' : '2026-01-01';
      if (schema.format === 'date-time')
        return name === 'until' ? '2027-01-01T00:00:00Z' : '2026-01-01T00:00:00Z';
      // Free text (e.g. category, borough): any value; the plan does not depend on it.
      if (schema.type === 'string' && schema.format === undefined) return 'Transportation';
      throw new Error(`no test value for the filter ${name} (${JSON.stringify(schema)})`);
    };
    // The `{id}` of a nested list: the parent made above.
    const parentOf = (path: string): string => {
      if (path.startsWith('/projects/{id}/')) return project.id;
      if (path.startsWith('/webhooks/{id}/')) return webhook.id;
      throw new Error(`no parent record for ${path}`);
    };

    // The values each filter is tried with: every order a list offers, free text served by the trigram index
    // (three characters or more) and too short for it, and a multi-value filter with one value and with two.
    const valuesOf = (name: string, schema: Json): (string | string[])[] => {
      if (name === 'sort') return (schema.enum as string[]) ?? [];
      if (name === 'q') return ['checker', 'ch'];
      if (schema.type === 'array') {
        const items = deref((schema.items as Json) ?? {});
        if (Array.isArray(items.enum)) return [String(items.enum[0]), items.enum.slice(0, 2).map(String)];
        // `id`: records by id (any ids: the plan does not depend on whose they are).
        if (name === 'id') return [project.id, [project.id, resource.id]];
        throw new Error(`no test values for the filter ${name} (${JSON.stringify(schema)})`);
      }
      return [filterValue(name, schema)];
    };

    const failures: string[] = [];
    let explained = 0;
    let requests = 0;
    for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
      const op = item.get as Json | undefined;
      if (!op) continue;
      const params = [...((item.parameters as Json[]) ?? []), ...((op.parameters as Json[]) ?? [])].map(
        deref,
      );
      if (!params.some((p) => p.name === 'limit')) continue;
      const filters = params.filter((p) => p.in === 'query' && p.name !== 'limit' && p.name !== 'offset');
      const concrete = path.includes('{id}') ? path.replace('{id}', parentOf(path)) : path;
      const cases: Record<string, string | string[]>[] = [
        {},
        ...filters.flatMap((filter) =>
          valuesOf(filter.name as string, deref((filter.schema as Json) ?? {})).map((value) => ({
            [filter.name as string]: value,
          })),
        ),
      ];
      for (const query of cases) {
        if (path === '/allocations/conflicts')
          Object.assign(query, { from: '2026-01-01', to: '2026-12-31', ...query });
        captured.length = 0;
        const res = await api.get(op.operationId as never, concrete, { query });
        if (res.status === 501) continue;
        expect(res.status, `${op.operationId as string} ${JSON.stringify(query)}`).to.equal(200);
        requests++;
        for (const statement of [...captured]) {
          explained++;
          for (const problem of await planProblems(statement, Array.isArray(query.id)))
            failures.push(
              `${op.operationId as string} ${JSON.stringify(query)}: ${problem}\n    ${statement.sql}`,
            );
        }
      }
    }
    console.log(`      ${requests} list requests, ${explained} statements explained on ${TEST_DB}`);
    expect(requests).to.be.greaterThan(20);
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });

  /** The plan of one statement as the database would run it (no planner setting changed), one line per node. */
  async function planOf(query: Captured): Promise<string[]> {
    if (TEST_DB === 'postgres') {
      const sql = query.sql.replace(/\$\d+/g, '?');
      const result = (await server.db.knex.raw(`EXPLAIN (FORMAT JSON) ${sql}`, query.bindings as never)) as {
        rows: { 'QUERY PLAN': { Plan: Json }[] }[];
      };
      const lines: string[] = [];
      const walk = (node: Json) => {
        lines.push(
          `${node['Node Type'] as string} ${(node['Index Name'] ?? node['Relation Name'] ?? '') as string}`,
        );
        for (const child of (node.Plans as Json[] | undefined) ?? []) walk(child);
      };
      walk(result.rows[0]?.['QUERY PLAN'][0]?.Plan as Json);
      return lines;
    }
    const rows = (await server.db.knex.raw(`EXPLAIN QUERY PLAN ${query.sql}`, query.bindings as never)) as {
      detail: string;
    }[];
    return rows.map((r) => r.detail);
  }

  it('serves `q` from the trigram index in a tenant of 20,000 projects', async () => {
    const t = await server.createTenant();
    const api = client(server.baseUrl, t.keys.admin);
    // Written straight into the table (the API would take minutes): the index is kept by the database itself, a
    // GIN index on Postgres and triggers into the FTS5 table on SQLite, whatever writes the rows.
    const now = new Date().toISOString();
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      id: uuidv7(),
      tenant_id: t.tenantId,
      code: `CP-${i}`,
      name: `Capital project ${i}`,
      description: i % 10 === 0 ? 'Sewer main replacement' : 'Street reconstruction',
      status: 'PLANNED',
      start_date: '2026-01-01',
      end_date: '2026-12-31',
      created_at: now,
      updated_at: now,
    }));
    await server.db.knex.batchInsert('projects', rows, 500);
    const needle = await makeProject(api, {
      name: 'Gowanus Canal Flushing Tunnel',
      code: 'GWN-7',
      description: 'Reactivation of the 1911 tunnel.',
    });
    if (TEST_DB === 'postgres') await server.db.knex.raw('ANALYZE projects');

    for (const q of ['FLUSHING tun', 'gwn-7', '1911 tunnel']) {
      captured.length = 0;
      const res = await api.get('listProjects', '/projects', { query: { q } });
      expect(res.status).to.equal(200);
      expect(
        res.body.data.map((p: { id: string }) => p.id),
        q,
      ).to.deep.equal([needle.id]);
      const statements = captured.filter((c) => /from .projects./i.test(c.sql));
      expect(statements.length, q).to.be.greaterThan(0);
      for (const statement of statements) {
        const plan = (await planOf(statement)).join(' | ');
        if (TEST_DB === 'postgres')
          expect(plan, `${q}: ${plan}`).to.include('Bitmap Index Scan projects_search_trgm');
        else expect(plan, `${q}: ${plan}`).to.match(/SCAN project_search_fts VIRTUAL TABLE INDEX \d+:M/);
        expect(plan, `${q}: ${plan}`).to.not.match(/(Seq Scan|^SCAN) projects\b/);
      }
    }
  });
});
