/**
 * The measures the agents compute, as pure functions of records (docs/agents.md, Agents: measures; the catalogue in
 * ./catalogue.ts says the same in the API). The field's terms:
 *
 * - schedule slip (days) = forecastEndDate − endDate (the baseline finish); unknown without a forecast.
 * - slip velocity (days per 30 days) = (slip at the latest status report − slip at the earliest) ÷ the days between
 *   them × 30: how fast the finish date moves.
 * - variance at completion (VAC) = budget − forecastCost (negative: an overrun); overrun = forecastCost − budget when
 *   positive; overrun % = overrun ÷ budget × 100.
 * - cost performance index proxy = budget ÷ forecastCost (below 1: over budget), used where no earned value exists.
 * - risk exposure = Σ likelihood × impact over the risks that are not CLOSED.
 * - utilisation (%) = allocated working days ÷ available working days in the horizon × 100, per person or role;
 *   over-allocation = a period in which one person's allocations sum above 100 % (the conflicts service).
 *
 * Unknown (null) inputs are excluded from every computation and reported as unknown, never counted as 0.
 */
import { daysBetween } from '../../dates.js';

/** A project as the agents see it (`actualCost` and `progress` may be unknown). */
export interface ProjectFacts {
  id: string;
  code: string | null;
  name: string;
  status: string;
  startDate: string;
  endDate: string;
  forecastEndDate: string | null;
  budget: number | null;
  forecastCost: number | null;
  actualCost: number | null;
  progress: number | null;
  projectManagerId: string | null;
}

/** Schedule slip in days, or null when there is no forecast finish. */
export function slipDays(p: Pick<ProjectFacts, 'endDate' | 'forecastEndDate'>): number | null {
  return p.forecastEndDate === null ? null : daysBetween(p.endDate, p.forecastEndDate);
}

/** Cost figures of a project, each null when an input is unknown. */
export interface CostFigures {
  /** budget − forecastCost. */
  varianceAtCompletion: number | null;
  /** forecastCost − budget (may be ≤ 0). */
  overrun: number | null;
  /** overrun ÷ budget × 100 (null when budget is 0 or unknown). */
  overrunPercent: number | null;
  /** budget ÷ forecastCost (null when forecastCost is 0 or unknown). */
  cpiProxy: number | null;
  /** actualCost ÷ budget × 100: the share of the budget spent to date. */
  spentPercent: number | null;
}

/** The cost figures of a project (see the module header). */
export function costFigures(p: Pick<ProjectFacts, 'budget' | 'forecastCost' | 'actualCost'>): CostFigures {
  const both = p.budget !== null && p.forecastCost !== null;
  const overrun = both ? (p.forecastCost as number) - (p.budget as number) : null;
  return {
    varianceAtCompletion: overrun === null ? null : -overrun,
    overrun,
    overrunPercent:
      overrun !== null && (p.budget as number) > 0 ? (overrun / (p.budget as number)) * 100 : null,
    cpiProxy:
      both && (p.forecastCost as number) > 0 ? (p.budget as number) / (p.forecastCost as number) : null,
    spentPercent:
      p.actualCost !== null && p.budget !== null && p.budget > 0 ? (p.actualCost / p.budget) * 100 : null,
  };
}

/** A point of a project's status-report history, as the agents use it. */
export interface ReportPoint {
  id: string;
  projectId: string;
  asOf: string;
  status: string;
  phase: string | null;
  forecastEndDate: string | null;
  forecastCost: number | null;
  actualCost: number | null;
  progress: number | null;
  summary: string | null;
  /** forecastEndDate − the baseline finish at that date; null without a forecast. */
  scheduleSlipDays: number | null;
  /** baseline budget at that date − forecastCost; null when either is unknown. */
  costVariance: number | null;
}

/**
 * Slip velocity in days per 30 days over a project's reports (asOf order): the change of slip between the earliest
 * and the latest report with a known slip, divided by the days between them, × 30. Null with fewer than two such
 * reports on different dates.
 */
export function slipVelocity(reports: readonly ReportPoint[]): {
  velocity: number;
  first: ReportPoint;
  last: ReportPoint;
} | null {
  const known = reports.filter((r) => r.scheduleSlipDays !== null);
  const first = known[0];
  const last = known[known.length - 1];
  if (!first || !last || first.asOf === last.asOf) return null;
  const days = daysBetween(first.asOf, last.asOf);
  return {
    velocity: (((last.scheduleSlipDays as number) - (first.scheduleSlipDays as number)) / days) * 30,
    first,
    last,
  };
}

/** How many times the forecast finish moved later from one report to the next (reports in asOf order). */
export function repeatedSlips(reports: readonly ReportPoint[]): ReportPoint[] {
  const out: ReportPoint[] = [];
  let previous: ReportPoint | null = null;
  for (const r of reports) {
    if (r.forecastEndDate === null) continue;
    if (previous?.forecastEndDate && r.forecastEndDate > previous.forecastEndDate) out.push(r);
    previous = r;
  }
  return out;
}

/**
 * Budget growth over a project's reports: the change of forecast cost from the earliest to the latest report with
 * a known one, as an amount and as a percentage of the earliest. Null with fewer than two such reports.
 */
export function budgetGrowth(reports: readonly ReportPoint[]): {
  amount: number;
  percent: number | null;
  first: ReportPoint;
  last: ReportPoint;
} | null {
  const known = reports.filter((r) => r.forecastCost !== null);
  const first = known[0];
  const last = known[known.length - 1];
  if (!first || !last || first === last) return null;
  const amount = (last.forecastCost as number) - (first.forecastCost as number);
  return {
    amount,
    percent: (first.forecastCost as number) > 0 ? (amount / (first.forecastCost as number)) * 100 : null,
    first,
    last,
  };
}

/** RAG of a reported status: ON_TRACK green, AT_RISK amber, OFF_TRACK red; other statuses say nothing of health. */
export function ragOfStatus(status: string): Rag | null {
  if (status === 'ON_TRACK') return 'GREEN';
  if (status === 'AT_RISK') return 'AMBER';
  if (status === 'OFF_TRACK') return 'RED';
  return null;
}

/** Red, amber, green. */
export type Rag = 'GREEN' | 'AMBER' | 'RED';

/** The signals of a project's health (each null when unknown). */
export interface HealthSignals {
  slipDays: number | null;
  overrunPercent: number | null;
  /** Open (not CLOSED) risks by severity. */
  openCritical: number;
  openHigh: number;
  /** Milestones not completed and due before asOf. */
  overdueMilestones: number;
  /** People allocated to the project who are over-allocated in the horizon. */
  overAllocatedPeople: number;
}

/** One deduction from the health score, with the signal that caused it. */
export interface HealthPenalty {
  signal: 'schedule' | 'cost' | 'risk' | 'milestones' | 'capacity';
  points: number;
}

/** The health score of a project and its RAG. */
export interface Health {
  /** 0–100; null when both schedule and cost are unknown (there is too little to judge). */
  score: number | null;
  rag: Rag | null;
  penalties: HealthPenalty[];
}

/** Score thresholds: GREEN at or above 75, AMBER at or above 50, RED below. */
export const RAG_THRESHOLDS = { green: 75, amber: 50 } as const;

/**
 * The health score (docs/agents.md, Agents): 100 minus
 * - schedule: slip ÷ 180 days × 40, at most 40 (none when on time or early);
 * - cost: overrun % ÷ 10 % × 40, at most 40;
 * - risk: 15 per open CRITICAL and 8 per open HIGH risk, at most 30;
 * - milestones: 5 per overdue milestone, at most 15;
 * - capacity: 10 when anyone allocated to it is over-allocated;
 * at least 0. Unknown schedule and cost signals deduct nothing; with both unknown there is no score.
 */
export function healthOf(s: HealthSignals): Health {
  const penalties: HealthPenalty[] = [];
  const add = (signal: HealthPenalty['signal'], points: number) => {
    const rounded = Math.round(points * 10) / 10;
    if (rounded > 0) penalties.push({ signal, points: rounded });
  };
  if (s.slipDays !== null) add('schedule', Math.min(40, (Math.max(0, s.slipDays) / 180) * 40));
  if (s.overrunPercent !== null) add('cost', Math.min(40, (Math.max(0, s.overrunPercent) / 10) * 40));
  add('risk', Math.min(30, s.openCritical * 15 + s.openHigh * 8));
  add('milestones', Math.min(15, s.overdueMilestones * 5));
  add('capacity', s.overAllocatedPeople > 0 ? 10 : 0);
  if (s.slipDays === null && s.overrunPercent === null) return { score: null, rag: null, penalties };
  const score = Math.max(0, Math.round(100 - penalties.reduce((sum, p) => sum + p.points, 0)));
  const rag: Rag = score >= RAG_THRESHOLDS.green ? 'GREEN' : score >= RAG_THRESHOLDS.amber ? 'AMBER' : 'RED';
  return { score, rag, penalties };
}

/** The median of numbers (null for none). */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Rounds to `digits` decimals (metrics and figures in text). */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** An amount in major units with its currency: `48,500,000 USD`. */
export function money(amount: number, currency: string): string {
  return `${WHOLE.format(amount)} ${currency}`;
}

/** A signed amount: `+2,700,000 USD` / `−1,200 USD`. */
export function signedMoney(amount: number, currency: string): string {
  return `${amount > 0 ? '+' : amount < 0 ? '−' : ''}${WHOLE.format(Math.abs(amount))} ${currency}`;
}

/** A percentage with one decimal: `5.6 %`. */
export function percent(value: number): string {
  return `${round(value, 1).toFixed(1)} %`;
}

/** Days with a sign: `+413 days` / `−12 days` / `0 days`. */
export function signedDays(days: number): string {
  return `${days > 0 ? '+' : days < 0 ? '−' : ''}${Math.abs(days)} day${Math.abs(days) === 1 ? '' : 's'}`;
}

/** `n thing(s)`. */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${WHOLE.format(n)} ${n === 1 ? singular : pluralForm}`;
}
