/**
 * `npm run eval`'s scoring (docs/agents.md, Ask): every question of the golden set (eval/golden/) is asked through `POST
 * /v1/agents/ask` with the tenant's read-only key, and its answer is scored against what the golden set says
 * independently of the engine — the records an answer must cite (by SQL over the database, or by title in the
 * fixture) and the facts it must state (by value: numbers and dates are read back out of the answer, not matched as
 * prose).
 *
 * - citation precision: cited records that are relevant (required or allowed) ÷ records cited;
 * - citation recall: required records cited ÷ required records;
 * - fact accuracy: facts stated ÷ facts required.
 * Each figure is given pooled over all citations/facts and as the mean over questions. Every answer is also checked
 * for integrity: each `[n]` resolves, each citation is referred to, and every figure and date in the answer appears
 * in a citation excerpt or is a count of, or sum over, the cited records.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { EvalWorld } from './harness.js';
import { type AskCitation, integrityOf, numbersIn } from './integrity.js';

export { datesIn, integrityOf, markersIn, numbersIn } from './integrity.js';

/** The golden set's folder: one YAML file of `questions:` per topic (eval/golden/README.md). */
export const GOLDEN_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden');

/**
 * The harder sets, written by reading the data rather than the code (eval/hard/README.md): `hard`, used while
 * tuning, and `held-out`, kept in a folder of its own that was run only to report it.
 */
export const HARDER_SETS: [string, string][] = [
  ['hard', path.join(path.dirname(fileURLToPath(import.meta.url)), 'hard')],
  ['held-out', path.join(path.dirname(fileURLToPath(import.meta.url)), 'held-out')],
];

/** An answer is right when it cites every required record and nothing else, states every fact, and refuses when it must. */
export function answerRight(s: QuestionScore): boolean {
  return (
    s.requiredCited === s.required &&
    s.citedRelevant === s.cited &&
    s.factsStated === s.facts &&
    s.refuse === s.refused
  );
}

type RecordRef = Record<string, string>;
/** SQL runs as given on SQLite; `sqlPostgres` replaces it on Postgres where the dialects differ (date arithmetic). */
type CiteSpec = { sql?: string; sqlPostgres?: string; records?: RecordRef[] };
type FactSpec = string | number | { sql: string; sqlPostgres?: string; round?: number };

function sqlOf(world: EvalWorld, spec: { sql?: string; sqlPostgres?: string }): string | undefined {
  return world.db.dialect === 'postgres' && spec.sqlPostgres ? spec.sqlPostgres : spec.sql;
}

/** One question of the golden set. */
export interface GoldenQuestion {
  id: string;
  tenant: 'nyc' | 'fixture' | 'twin' | 'synthetic';
  category: string;
  question: string;
  /** Restrict to this project (named by its title in the tenant). */
  project?: string;
  /** The records the answer must cite. Absent: none (a question with nothing relevant). */
  cite?: CiteSpec;
  /** Records the answer may cite without penalty (e.g. the project a listed risk belongs to). */
  allow?: CiteSpec;
  /** Values the answer must state. */
  facts?: FactSpec[];
  /** The question must be refused: another tenant's data, or advice the records cannot ground (cite nothing). */
  refuse?: boolean;
}

/** What one answer scored. */
export interface QuestionScore {
  id: string;
  category: string;
  question: string;
  answer: string;
  engine: string;
  /** Why the embedded engine answered although a model is configured, when it did. */
  fallbackReason?: string | undefined;
  /** The model's sentences the server dropped (`engine: model` only). */
  sentencesDropped?: number | undefined;
  ms: number;
  cited: number;
  citedRelevant: number;
  required: number;
  requiredCited: number;
  facts: number;
  factsStated: number;
  missingRecords: string[];
  extraRecords: string[];
  missingFacts: string[];
  integrity: string[];
  /** Whether the question is to be refused, and whether the answer did (cited nothing). */
  refuse: boolean;
  refused: boolean;
}

/** Figures over a set of answers. */
export interface Figures {
  questions: number;
  precision: number;
  recall: number;
  factAccuracy: number;
  meanPrecision: number;
  meanRecall: number;
  meanFactAccuracy: number;
  integrityErrors: number;
  /** Share of answers right ({@link answerRight}). */
  accuracy: number;
  /** Questions to be refused, and how many of them the answers refused. */
  refusalsExpected: number;
  refusalsMade: number;
}

/**
 * Reads the golden set: the questions of every `.yaml` file of `dir`, the files in the order of their names.
 * @throws Error on a question id used twice.
 */
export function loadGolden(dir = GOLDEN_DIR): GoldenQuestion[] {
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  const questions = files.flatMap(
    (f) => (parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { questions: GoldenQuestion[] }).questions,
  );
  const ids = new Set<string>();
  for (const q of questions) {
    if (ids.has(q.id)) throw new Error(`golden set: duplicate id ${q.id}`);
    ids.add(q.id);
  }
  return questions;
}

const TABLES: Record<string, { table: string; title: string }> = {
  project: { table: 'projects', title: 'name' },
  risk: { table: 'risks', title: 'title' },
  issue: { table: 'issues', title: 'title' },
  milestone: { table: 'milestones', title: 'name' },
  resource: { table: 'resources', title: 'name' },
};

async function resolveCite(
  world: EvalWorld,
  tenantId: string,
  spec: CiteSpec | undefined,
): Promise<Set<string>> {
  const out = new Set<string>();
  if (!spec) return out;
  const knex = world.db.knex;
  const sql = sqlOf(world, spec);
  if (sql) {
    const rows = await rawRows(world, sql, tenantId);
    for (const row of rows) out.add(String(Object.values(row)[0]));
  }
  for (const ref of spec.records ?? []) {
    const [type, title] = Object.entries(ref)[0] as [string, string];
    if (type === 'allocation') {
      // `allocation: "Person on Project"`.
      const [person, project] = title.split(' on ');
      const rows = (await knex('allocations as a')
        .join('resources as r', 'r.id', 'a.resource_id')
        .join('projects as p', 'p.id', 'a.project_id')
        .where({ 'a.tenant_id': tenantId, 'r.name': person, 'p.name': project })
        .select('a.id')) as { id: string }[];
      if (rows.length === 0) throw new Error(`golden set: no allocation ${title}`);
      for (const r of rows) out.add(r.id);
      continue;
    }
    if (type === 'status_report') {
      // `status_report: "Project name YYYY-MM-DD"`.
      const asOf = title.slice(-10);
      const project = title.slice(0, -11);
      const rows = (await knex('status_reports as s')
        .join('projects as p', 'p.id', 's.project_id')
        .where({ 's.tenant_id': tenantId, 'p.name': project, 's.as_of': asOf })
        .select('s.id')) as { id: string }[];
      if (rows.length !== 1) throw new Error(`golden set: ${rows.length} status reports ${title}`);
      out.add((rows[0] as { id: string }).id);
      continue;
    }
    const t = TABLES[type];
    if (!t) throw new Error(`golden set: unknown record type ${type}`);
    const rows = (await knex(t.table)
      .where({ tenant_id: tenantId, [t.title]: title })
      .select('id')) as {
      id: string;
    }[];
    if (rows.length !== 1) throw new Error(`golden set: ${rows.length} ${type} records titled ${title}`);
    out.add((rows[0] as { id: string }).id);
  }
  return out;
}

async function rawRows(world: EvalWorld, sql: string, tenantId: string): Promise<Record<string, unknown>[]> {
  const result = (await world.db.knex.raw(sql.replaceAll(':tenant', '?'), [
    ...Array.from(sql.matchAll(/:tenant/g), () => tenantId),
  ])) as Record<string, unknown>[] | { rows: Record<string, unknown>[] };
  return Array.isArray(result) ? result : result.rows;
}

/** A fact as a value to find: a string as is, a number with its tolerance. */
type Fact = { text: string } | { number: number; tolerance: number; label: string };

async function resolveFacts(
  world: EvalWorld,
  tenantId: string,
  specs: FactSpec[] | undefined,
): Promise<Fact[]> {
  const out: Fact[] = [];
  for (const spec of specs ?? []) {
    if (typeof spec === 'string') out.push({ text: spec });
    else if (typeof spec === 'number') out.push({ number: spec, tolerance: 0.005, label: String(spec) });
    else {
      for (const row of await rawRows(world, sqlOf(world, spec) as string, tenantId)) {
        for (const value of Object.values(row)) {
          if (value === null || value === undefined) continue;
          const n =
            typeof value === 'number' ? value : /^-?\d+(\.\d+)?$/.test(String(value)) ? Number(value) : null;
          if (n === null) out.push({ text: String(value) });
          else if (spec.round !== undefined) {
            const r = Number(n.toFixed(spec.round));
            out.push({ number: r, tolerance: 0.5 * 10 ** -spec.round + 1e-9, label: String(r) });
          } else out.push({ number: n, tolerance: 0.005, label: String(n) });
        }
      }
    }
  }
  return out;
}

function factStated(answer: string, fact: Fact): boolean {
  if ('text' in fact) return answer.includes(fact.text);
  return numbersIn(answer).some((n) => Math.abs(n - fact.number) <= fact.tolerance);
}

/** Asks one question and scores the answer. */
export async function scoreQuestion(world: EvalWorld, q: GoldenQuestion): Promise<QuestionScore> {
  const tenant = world.tenants[q.tenant];
  const required = await resolveCite(world, tenant.id, q.cite);
  const allowed = await resolveCite(world, tenant.id, q.allow);
  const facts = await resolveFacts(world, tenant.id, q.facts);
  const body: Record<string, string> = { question: q.question };
  if (q.project)
    body.projectId = [
      ...(await resolveCite(world, tenant.id, { records: [{ project: q.project }] })),
    ][0] as string;
  const started = performance.now();
  const res = await fetch(`${world.baseUrl}/agents/ask`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.readKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as {
    answer: string;
    citations: AskCitation[];
    engine: string;
    fallbackReason?: string;
    sentencesDropped?: number;
  };
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`${q.id}: ${res.status} ${JSON.stringify(json)}`);
  const cited = new Set(json.citations.map((c) => c.id));
  const relevant = new Set([...required, ...allowed]);
  const stated = facts.filter((f) => factStated(json.answer, f));
  return {
    id: q.id,
    category: q.category,
    question: q.question,
    answer: json.answer,
    engine: json.engine,
    fallbackReason: json.fallbackReason,
    sentencesDropped: json.sentencesDropped,
    ms,
    cited: cited.size,
    citedRelevant: [...cited].filter((id) => relevant.has(id)).length,
    required: required.size,
    requiredCited: [...required].filter((id) => cited.has(id)).length,
    facts: facts.length,
    factsStated: stated.length,
    missingRecords: [...required].filter((id) => !cited.has(id)),
    extraRecords: json.citations.filter((c) => !relevant.has(c.id)).map((c) => `${c.type} “${c.title}”`),
    missingFacts: facts.filter((f) => !stated.includes(f)).map((f) => ('text' in f ? f.text : f.label)),
    integrity: integrityOf(json.answer, json.citations, q.question),
    refuse: q.refuse === true,
    refused: q.refuse === true && json.citations.length === 0,
  };
}

/** Pooled and per-question figures over scores. */
export function figuresOf(scores: QuestionScore[]): Figures {
  const sum = (f: (s: QuestionScore) => number) => scores.reduce((a, s) => a + f(s), 0);
  const ratio = (num: number, den: number) => (den === 0 ? 1 : num / den);
  const mean = (f: (s: QuestionScore) => number) => (scores.length ? sum(f) / scores.length : 1);
  return {
    questions: scores.length,
    precision: ratio(
      sum((s) => s.citedRelevant),
      sum((s) => s.cited),
    ),
    recall: ratio(
      sum((s) => s.requiredCited),
      sum((s) => s.required),
    ),
    factAccuracy: ratio(
      sum((s) => s.factsStated),
      sum((s) => s.facts),
    ),
    meanPrecision: mean((s) => ratio(s.citedRelevant, s.cited)),
    meanRecall: mean((s) => ratio(s.requiredCited, s.required)),
    meanFactAccuracy: mean((s) => ratio(s.factsStated, s.facts)),
    integrityErrors: sum((s) => s.integrity.length),
    accuracy: mean((s) => (answerRight(s) ? 1 : 0)),
    refusalsExpected: sum((s) => (s.refuse ? 1 : 0)),
    refusalsMade: sum((s) => (s.refused ? 1 : 0)),
  };
}

/** Scores every question of the golden set, in order. */
export async function runGolden(world: EvalWorld, questions = loadGolden()): Promise<QuestionScore[]> {
  const out: QuestionScore[] = [];
  for (const q of questions) out.push(await scoreQuestion(world, q));
  return out;
}
