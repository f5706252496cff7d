/**
 * The benchmark's large tenant: 100,000 projects, 200,000 risks, 5,000 resources and 50,000 allocations, written
 * straight into a migrated SQLite file in batches (one transaction and one prepared statement per batch of rows),
 * so the HTTP benchmark measures list and detail queries at a size the NYC demo portfolio (≈ 400 projects) never
 * reaches. Values come from a seeded generator: every run builds the same rows.
 *
 * Writes only the columns every migration since the first has had, so the same seed fills the database of an older
 * commit (the benchmark's "before" run).
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';

/** What {@link seedLargeTenant} made. */
export interface LargeTenant {
  tenantId: string;
  apiKey: string;
}

/** Sizes of the large tenant: 100,000 projects, 200,000 risks, 50,000 allocations. */
export const LARGE_SIZES = { projects: 100_000, risksPerProject: 2, resources: 5_000, allocations: 50_000 };

/** The large tenant's admin key: fixed, so a cached database file keeps working. */
export const LARGE_TENANT_KEY = `mk_live_${'L'.repeat(20)}${'b'.repeat(20)}`;

const STATUSES = ['PLANNED', 'ON_TRACK', 'AT_RISK', 'OFF_TRACK', 'ON_HOLD', 'COMPLETED', 'CANCELLED'] as const;
const RISK_STATUSES = ['OPEN', 'MITIGATING', 'ACCEPTED', 'CLOSED'] as const;

/** mulberry32: a small seeded PRNG, so the data set is the same on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A UUID-shaped id of the seed (kind 5 = projects, 4 = resources) that sorts by `n` within a kind (like UUID v7, ids are time-ordered). */
export function idOf(kind: number, n: number): string {
  const hex = n.toString(16).padStart(12, '0');
  return `0190${kind.toString(16).padStart(4, '0')}-0000-7000-8000-${hex}`;
}

function instant(base: number, offsetMs: number): string {
  return new Date(base + offsetMs).toISOString();
}

function dateOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function severityOf(score: number): string {
  if (score >= 20) return 'CRITICAL';
  if (score >= 10) return 'HIGH';
  if (score >= 5) return 'MEDIUM';
  return 'LOW';
}

/**
 * Adds the large tenant to a migrated Meridian SQLite file (does nothing if it is already there).
 * @param file path of the SQLite file (its server must be stopped).
 * @param log progress lines.
 */
export function seedLargeTenant(file: string, log: (line: string) => void = () => undefined): LargeTenant {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const tenantId = idOf(1, 1);
  try {
    if (db.prepare('SELECT 1 FROM tenants WHERE id = ?').get(tenantId))
      return { tenantId, apiKey: LARGE_TENANT_KEY };
    const base = Date.parse('2021-01-01T00:00:00.000Z');
    const now = instant(base, 0);
    const random = prng(8);
    const userId = idOf(2, 1);
    db.transaction(() => {
      db.prepare(
        'INSERT INTO tenants (id, name, plan, currency, timezone, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ).run(tenantId, 'Benchmark Enterprise PMO', 'ENTERPRISE', 'EUR', 'Europe/Berlin', now, now);
      db.prepare(
        'INSERT INTO users (id, tenant_id, name, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(userId, tenantId, 'Benchmark owner', 'owner@bench.example', now, now);
      db.prepare(
        'INSERT INTO api_keys (id, tenant_id, user_id, name, prefix, key_hash, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(
        idOf(3, 1),
        tenantId,
        userId,
        'Benchmark admin key',
        LARGE_TENANT_KEY.slice(0, 12),
        createHash('sha256').update(LARGE_TENANT_KEY).digest('hex'),
        JSON.stringify(['read', 'write', 'admin']),
        now,
      );
    })();

    const batch = <T>(label: string, total: number, make: (i: number) => T, insert: (row: T) => void) => {
      const write = db.transaction((from: number, to: number) => {
        for (let i = from; i < to; i++) insert(make(i));
      });
      for (let from = 0; from < total; from += 5_000) {
        write(from, Math.min(total, from + 5_000));
      }
      log(`  ${label}: ${total.toLocaleString('en-US')}`);
    };

    const resource = db.prepare(
      'INSERT INTO resources (id, tenant_id, name, email, role, skills, capacity_hours_per_week, cost_rate_per_hour, active, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 40, ?, 1, 1, ?, ?)',
    );
    const roles = ['Engineer', 'Planner', 'Site manager', 'Analyst', 'Architect'];
    batch(
      'resources',
      LARGE_SIZES.resources,
      (i) => i,
      (i) => {
        const at = instant(base, i * 1000);
        resource.run(
          idOf(4, i),
          tenantId,
          `Resource ${i}`,
          `r${i}@bench.example`,
          roles[i % roles.length],
          '["planning"]',
          60 + (i % 90),
          at,
          at,
        );
      },
    );

    const project = db.prepare(
      'INSERT INTO projects (id, tenant_id, code, name, description, status, start_date, end_date, forecast_end_date, budget, forecast_cost, actual_cost, project_manager_id, progress, tags, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)',
    );
    batch(
      'projects',
      LARGE_SIZES.projects,
      (i) => i,
      (i) => {
        const at = instant(base, i * 60_000);
        const start = base + Math.floor(random() * 1_000) * 86_400_000;
        const end = start + (90 + Math.floor(random() * 900)) * 86_400_000;
        const budget = Math.round(50_000 + random() * 5_000_000);
        project.run(
          idOf(5, i),
          tenantId,
          `BENCH-${i}`,
          `Benchmark project ${i}`,
          'A synthetic project of the benchmark tenant.',
          STATUSES[Math.floor(random() * STATUSES.length)],
          dateOf(start),
          dateOf(end),
          dateOf(end + Math.floor(random() * 120) * 86_400_000),
          budget,
          Math.round(budget * (0.8 + random() * 0.5)),
          Math.round(budget * random()),
          idOf(4, i % LARGE_SIZES.resources),
          Math.floor(random() * 101),
          '["bench"]',
          at,
          at,
        );
      },
    );

    const risk = db.prepare(
      'INSERT INTO risks (id, tenant_id, project_id, title, description, likelihood, impact, score, severity, severity_source, status, owner_id, mitigation, due_date, version, created_at, updated_at) VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, 1, ?, ?)',
    );
    batch(
      'risks',
      LARGE_SIZES.projects * LARGE_SIZES.risksPerProject,
      (i) => i,
      (i) => {
        const at = instant(base, i * 30_000);
        const likelihood = 1 + Math.floor(random() * 5);
        const impact = 1 + Math.floor(random() * 5);
        risk.run(
          idOf(6, i),
          tenantId,
          idOf(5, Math.floor(i / LARGE_SIZES.risksPerProject)),
          `Benchmark risk ${i}`,
          likelihood,
          impact,
          likelihood * impact,
          severityOf(likelihood * impact),
          'DERIVED',
          RISK_STATUSES[Math.floor(random() * RISK_STATUSES.length)],
          idOf(4, i % LARGE_SIZES.resources),
          at,
          at,
        );
      },
    );

    const allocation = db.prepare(
      'INSERT INTO allocations (id, tenant_id, resource_id, project_id, start_date, end_date, allocation_percent, role, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)',
    );
    batch(
      'allocations',
      LARGE_SIZES.allocations,
      (i) => i,
      (i) => {
        const at = instant(base, i * 120_000);
        const start = base + Math.floor(random() * 1_500) * 86_400_000;
        allocation.run(
          idOf(7, i),
          tenantId,
          idOf(4, i % LARGE_SIZES.resources),
          // The first 10,000 projects get five allocations each (a team to aggregate); the rest none.
          idOf(5, i % 10_000),
          dateOf(start),
          dateOf(start + (30 + Math.floor(random() * 300)) * 86_400_000),
          10 * (1 + Math.floor(random() * 10)),
          roles[i % roles.length],
          at,
          at,
        );
      },
    );
    db.pragma('wal_checkpoint(TRUNCATE)');
    return { tenantId, apiKey: LARGE_TENANT_KEY };
  } finally {
    db.close();
  }
}
