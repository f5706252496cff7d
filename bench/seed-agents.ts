/**
 * The agents benchmark's synthetic portfolio ("over 10,000 synthetic projects"): one tenant with `projects`
 * projects and, in proportion, milestones (3 each), risks (2 on 70 % of projects), issues (1 on half), people (one
 * per 20 projects), allocations (one per 2 projects) and status reports (4 each), with every signal the agents
 * read: slips, overruns, unknown forecasts (10 %), overdue milestones, open and closed risks, over-allocation,
 * history. Written through Knex in batches (one transaction per table), so it seeds SQLite and Postgres alike, with
 * the tables' own mappers naming the columns. Values come from a seeded generator: every run builds the same rows.
 */
import type { Knex } from 'knex';
import { allocations } from '../server/repositories/allocations.js';
import type { VersionedRecord, VersionedTable } from '../server/repositories/versioned-table.js';
import { issues } from '../server/repositories/issues.js';
import { milestones } from '../server/repositories/milestones.js';
import { projects } from '../server/repositories/projects.js';
import { resources } from '../server/repositories/resources.js';
import { risks } from '../server/repositories/risks.js';
import { prng } from './seed-large.js';

/** A UUID-shaped id of kind `kind` that sorts by `n` (time-ordered like UUID v7). */
function idOf(kind: number, n: number): string {
  return `0191${kind.toString(16).padStart(4, '0')}-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
}

const DAY = 86_400_000;
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function insertAll<R extends VersionedRecord, F extends object>(
  db: Knex,
  table: VersionedTable<R, F>,
  tenantId: string,
  rows: { id: string; fields: F }[],
  at: string,
): Promise<void> {
  await db.transaction(async (trx) => {
    for (let i = 0; i < rows.length; i += 500) {
      await trx(table.name).insert(
        rows.slice(i, i + 500).map((r) => ({
          id: r.id,
          tenant_id: tenantId,
          ...table.toColumns(r.fields),
          version: 1,
          created_at: at,
          updated_at: at,
        })),
      );
    }
  });
}

/** What {@link seedAgentsTenant} made. */
export interface SeededTenant {
  tenantId: string;
  counts: Record<string, number>;
}

/**
 * Adds the synthetic tenant (time zone UTC) to a migrated database. `asOf` is the date the signals are arranged
 * around (overdue milestones before it, allocations after it).
 */
export async function seedAgentsTenant(db: Knex, size: number, asOf: string, seed = 11): Promise<SeededTenant> {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const tenantId = idOf(1, size);
  const at = '2026-01-05T09:00:00.000Z';
  await db('tenants').insert({ id: tenantId, name: `Agents bench ${size}`, created_at: at, updated_at: at });
  const base = Date.parse(`${asOf}T00:00:00Z`);
  const statuses = ['PLANNED', 'ON_TRACK', 'ON_TRACK', 'AT_RISK', 'OFF_TRACK', 'ON_HOLD', 'COMPLETED', 'CANCELLED'] as const;

  const projectRows = Array.from({ length: size }, (_, i) => {
    const start = base - Math.floor(random() * 900) * DAY;
    const end = start + (180 + Math.floor(random() * 900)) * DAY;
    const budget = Math.round(50_000 + random() * 5_000_000);
    const unknown = random() < 0.1;
    return {
      id: idOf(2, i),
      fields: {
        code: `AG-${i}`,
        name: `Synthetic project ${i}`,
        description: null,
        status: pick(statuses),
        startDate: date(start),
        endDate: date(end),
        forecastEndDate: unknown ? null : date(end + Math.floor(-30 + random() * 430) * DAY),
        budget,
        forecastCost: unknown ? null : Math.round(budget * (0.9 + random() * 0.5)),
        actualCost: Math.round(budget * random() * 0.8),
        projectManagerId: null,
        progress: Math.floor(random() * 100),
        tags: [],
        category: pick(['Streets', 'Bridges', 'Sewers', 'Parks'] as const),
        borough: pick(['Brooklyn', 'Queens', 'Manhattan', 'Bronx', 'Staten Island'] as const),
        managingAgency: pick(['DOT', 'DEP', 'DDC'] as const),
        clientAgency: null,
      },
    };
  });
  await insertAll(db, projects, tenantId, projectRows, at);

  const milestoneRows = projectRows.flatMap((p, i) =>
    [0, 1, 2].map((k) => {
      const due = base + Math.floor(-200 + random() * 500) * DAY;
      const done = due < base && random() < 0.6;
      // Overdue and not done: MISSED already, as the periodic sweep leaves them in a running deployment.
      const status = done ? ('COMPLETED' as const) : due < base ? ('MISSED' as const) : ('PENDING' as const);
      return {
        id: idOf(3, i * 3 + k),
        fields: {
          projectId: p.id,
          name: `Milestone ${k + 1}`,
          description: null,
          dueDate: date(due),
          status,
          completedAt: done ? new Date(due).toISOString() : null,
        },
      };
    }),
  );
  await insertAll(db, milestones, tenantId, milestoneRows, at);
  await db('milestones').where({ tenant_id: tenantId, status: 'MISSED' }).update({ missed_event_at: at });

  const riskRows = projectRows.flatMap((p, i) => {
    if (random() >= 0.7) return [];
    return [0, 1].map((k) => {
      const likelihood = 1 + Math.floor(random() * 5);
      const impact = 1 + Math.floor(random() * 5);
      const score = likelihood * impact;
      return {
        id: idOf(4, i * 2 + k),
        fields: {
          projectId: p.id,
          title: `Risk ${k + 1} of project ${i}`,
          description: null,
          likelihood,
          impact,
          score,
          severity: (score >= 20 ? 'CRITICAL' : score >= 10 ? 'HIGH' : score >= 5 ? 'MEDIUM' : 'LOW') as
            | 'CRITICAL'
            | 'HIGH'
            | 'MEDIUM'
            | 'LOW',
          severitySource: 'DERIVED' as const,
          status: pick(['OPEN', 'OPEN', 'MITIGATING', 'ACCEPTED', 'CLOSED'] as const),
          ownerId: null,
          mitigation: random() < 0.5 ? 'A mitigation plan' : null,
          dueDate: random() < 0.6 ? date(base + Math.floor(-120 + random() * 240) * DAY) : null,
        },
      };
    });
  });
  await insertAll(db, risks, tenantId, riskRows, at);

  const issueRows = projectRows.flatMap((p, i) =>
    random() < 0.5
      ? [
          {
            id: idOf(5, i),
            fields: {
              projectId: p.id,
              title: `Issue of project ${i}`,
              description: null,
              status: pick(['OPEN', 'IN_PROGRESS', 'RESOLVED', 'CLOSED'] as const),
              priority: pick(['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const),
              assigneeId: null,
              dueDate: null,
              resolvedAt: null,
            },
          },
        ]
      : [],
  );
  await insertAll(db, issues, tenantId, issueRows, at);

  const people = Math.max(1, Math.floor(size / 20));
  const roles = ['Engineer', 'Planner', 'Site manager', 'Analyst', 'Architect'];
  const resourceRows = Array.from({ length: people }, (_, i) => ({
    id: idOf(6, i),
    fields: {
      name: `Person ${i}`,
      email: null,
      role: roles[i % roles.length] as string,
      skills: [],
      capacityHoursPerWeek: 40,
      costRatePerHour: null,
      active: i % 25 !== 0,
    },
  }));
  await insertAll(db, resources, tenantId, resourceRows, at);

  const allocationRows = Array.from({ length: Math.floor(size / 2) }, (_, i) => {
    const start = base + Math.floor(-60 + random() * 300) * DAY;
    return {
      id: idOf(7, i),
      fields: {
        resourceId: idOf(6, Math.floor(random() * people)),
        projectId: idOf(2, Math.floor(random() * size)),
        startDate: date(start),
        endDate: date(start + Math.floor(20 + random() * 160) * DAY),
        allocationPercent: 10 + Math.floor(random() * 7) * 10,
        role: null,
      },
    };
  });
  await insertAll(db, allocations, tenantId, allocationRows, at);

  // Four status reports per project, 90 days apart up to asOf, the forecast finish and cost drifting towards the
  // project's current ones (the newest report is the project's state), rows written straight into the table.
  const reportRows = projectRows.flatMap((p, i) =>
    [3, 2, 1, 0].map((k) => {
      const f = p.fields;
      const drift = (value: number | null, by: number) => (value === null ? null : Math.round(value - by * k));
      const finish = f.forecastEndDate === null ? null : date(Date.parse(f.forecastEndDate) - k * 20 * DAY);
      const status = k === 0 ? f.status : pick(['ON_TRACK', 'AT_RISK', 'OFF_TRACK'] as const);
      return {
        id: idOf(8, i * 4 + k),
        tenant_id: tenantId,
        project_id: p.id,
        as_of: date(base - k * 90 * DAY),
        status,
        phase: 'Construction',
        forecast_end_date: finish,
        forecast_cost: drift(f.forecastCost, (f.budget * 0.02) | 0),
        actual_cost: null,
        progress: null,
        summary: null,
        source: 'import:bench',
        baseline_end_date: f.endDate,
        baseline_budget: f.budget,
        applied: true,
        created_at: at,
      };
    }),
  );
  await db.transaction(async (trx) => {
    for (let i = 0; i < reportRows.length; i += 500) await trx('status_reports').insert(reportRows.slice(i, i + 500));
  });

  return {
    tenantId,
    counts: {
      projects: projectRows.length,
      milestones: milestoneRows.length,
      risks: riskRows.length,
      issues: issueRows.length,
      resources: resourceRows.length,
      allocations: allocationRows.length,
      'status reports': reportRows.length,
    },
  };
}
