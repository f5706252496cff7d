/**
 * When the seed's events fire (docs/webhooks.md, Events: triggers), as pure functions of a record before and after a change.
 */
import type { Schema } from '../schemas.js';

type RiskSeverity = Schema<'RiskSeverity'>;

/** The kind of a budget overrun (spec `BudgetOverrunKind`). */
export type OverrunKind = Schema<'BudgetOverrunKind'>;

/** The money fields a budget overrun is judged on. */
export interface BudgetFigures {
  budget: number | null;
  actualCost: number | null;
  forecastCost: number | null;
}

function over(amount: number | null, budget: number | null): boolean {
  return budget !== null && amount !== null && amount > budget;
}

/**
 * The overrun kinds that crossed above the budget between `before` (null for a new project) and `after`: once per
 * crossing, again only after falling back to or below the budget (spec, webhooks `budget.overrun_detected`).
 * Projects without a budget never overrun.
 */
export function overrunCrossings(before: BudgetFigures | null, after: BudgetFigures): OverrunKind[] {
  const kinds: OverrunKind[] = [];
  if (over(after.actualCost, after.budget) && !(before && over(before.actualCost, before.budget)))
    kinds.push('ACTUAL');
  if (over(after.forecastCost, after.budget) && !(before && over(before.forecastCost, before.budget))) {
    kinds.push('FORECAST');
  }
  return kinds;
}

const RANK: Record<RiskSeverity, number> = { LOW: 0, MEDIUM: 1, HIGH: 2, CRITICAL: 3 };

/** Whether a severity change is an escalation (`risk.severity_escalated`): only rises count. */
export function isEscalation(before: RiskSeverity, after: RiskSeverity): boolean {
  return RANK[after] > RANK[before];
}
