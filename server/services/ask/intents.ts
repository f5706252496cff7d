/**
 * The intent rules of the Ask agent (docs/agents.md, Ask: retrieval): what a portfolio manager asks most, read from
 * the question by the ordered regular expressions of ./vocabulary.ts, deterministically. A question no rule claims
 * goes to full-text retrieval with its content words.
 *
 * This module is pure: the project a question names (a subject) and the tenant's facet vocabulary are found by the
 * caller (retrieval.ts, subjects.ts) and passed in.
 */
import type { ProjectStatus } from '../../repositories/projects.js';
import {
  type GroupField,
  type Grouping,
  groupingIn,
  type MoneyThreshold,
  moneyThresholdIn,
} from './describing.js';
import { type FacetFilter, type FacetValue, facetsIn } from './facets.js';
import { countIn } from './text.js';
import {
  ASPECTS,
  firstMatch,
  firstMatchFirst,
  ISSUE_PRIORITY,
  ISSUE_STATUS,
  type ProjectAspect,
  RISK_SEVERITY,
  RISK_STATUS,
  RX,
  STATUS_WORDS,
  SUM_FIELDS,
  type SumField,
  searchTerms,
} from './vocabulary.js';

export { type FacetValue, facetsIn } from './facets.js';

/** How projects are filtered by a portfolio question; every given condition must hold. */
export interface ProjectFilter {
  statuses?: ProjectStatus[];
  /** Forecast cost above budget. */
  overBudget?: boolean;
  /** Forecast finish after the baseline finish. */
  late?: boolean;
  /** Facet filters, combined with AND (the values of one facet with OR). */
  facets?: FacetFilter[];
  /** A money threshold ("over $100 M"): the field at least `min` and/or at most `max`. */
  money?: MoneyThreshold;
  /**
   * Projects with a status report dated in the period a time word names ("on fire this week"), of one of
   * `statuses` when given (then the project's own status is not filtered: the report's is).
   */
  reported?: { from: string; to: string; statuses?: ProjectStatus[] };
}

/** What a ranking orders projects by: overrun (amount or % of budget), slip in days, or budget / forecast cost. */
export type RankingMeasure = 'overrun' | 'overrunPercent' | 'slip' | 'budget' | 'forecastCost';

/** What a question asks, as the rules read it. */
export type Intent =
  | {
      kind: 'project';
      aspects: ProjectAspect[];
      terms: string[];
      risks: { severities?: string[]; statuses?: string[] };
      issues: { priorities?: string[]; statuses?: string[] };
      milestones?: 'missed' | 'upcoming';
      /** The question asks what the latest status report changed ("the last status report"). */
      latestReport?: boolean;
    }
  | { kind: 'projects'; form: 'list' | 'count'; filter: ProjectFilter; terms: string[] }
  | { kind: 'projectSum'; field: SumField; filter: ProjectFilter; terms: string[] }
  | { kind: 'ranking'; measure: RankingMeasure; n: number; filter: ProjectFilter }
  | { kind: 'portfolio'; filter: ProjectFilter }
  /** Projects grouped by a facet, the manager or the status, each group counted or summed (./describing.ts). */
  | { kind: 'groups'; grouping: Grouping; filter: ProjectFilter }
  | {
      kind: 'risks';
      form: 'list' | 'count';
      severities?: string[];
      statuses?: string[];
      filter: ProjectFilter;
      terms: string[];
    }
  | {
      kind: 'issues';
      form: 'list' | 'count';
      priorities?: string[];
      statuses?: string[];
      filter: ProjectFilter;
      terms: string[];
    }
  | { kind: 'milestones'; form: 'list' | 'count'; which: 'missed' | 'upcoming'; filter: ProjectFilter }
  | { kind: 'overAllocated' }
  /** What one or more people named in the question work on. */
  | { kind: 'person' }
  | { kind: 'search'; terms: string[]; types?: string[] }
  /** A request for advice or a decision ("Should we cancel X?"): beyond what records can ground. */
  | { kind: 'advice' };

/** What the rules know besides the text: whether the question names a project, and the tenant's facet values. */
export interface ParseContext {
  /** The question names a project (or the request's `projectId` restricts to one). */
  hasSubject: boolean;
  /** The question names a person (a resource) by full name. */
  hasPerson?: boolean;
  /** Words of the subject's name, dropped from the search terms. */
  subjectWords?: readonly string[];
  /** The values of the tenant's project facets (borough, category, agencies, tags). */
  facets?: readonly FacetValue[];
}

/** The project filter a question's words state: statuses, over budget, late, and the facets it names. */
export function projectFilterOf(text: string, facets: FacetFilter[]): ProjectFilter {
  const filter: ProjectFilter = {};
  const statuses = new Set<ProjectStatus>();
  for (const [rx, values] of STATUS_WORDS) if (rx.test(text)) for (const v of values) statuses.add(v);
  if (statuses.size > 0) filter.statuses = [...statuses];
  if (RX.overrun.test(text)) filter.overBudget = true;
  if (RX.slip.test(text)) filter.late = true;
  if (facets.length > 0) filter.facets = facets;
  const money = moneyThresholdIn(text);
  if (money) filter.money = money;
  return filter;
}

function hasProjectFilter(f: ProjectFilter): boolean {
  return Boolean(f.statuses || f.overBudget || f.late || f.facets || f.money || f.reported);
}

/** The facet whose several values a question names ("Brooklyn and Queens"): what "compare" groups by. */
function comparedField(facets: FacetFilter[]): GroupField | null {
  const f = facets.find((x) => x.values.length >= 2);
  if (!f || f.field === 'tags') return null;
  return f.field === 'agency' ? 'managingAgency' : f.field;
}

/**
 * Reads the intent of a question.
 * @param question the question as asked (facet values are matched against it, case matters for acronyms).
 * @param text the question through {@link normalise}.
 */
export function parseIntent(question: string, text: string, ctx: ParseContext): Intent {
  const facets = facetsIn(question, ctx.facets ?? []);
  const terms = searchTerms(text, ctx.subjectWords ?? [], facets);
  const form = RX.count.test(text) ? 'count' : 'list';
  if (RX.advice.test(text)) return { kind: 'advice' };

  if (ctx.hasSubject) {
    // A question about one project: its words name the aspects to answer ("How late is it?" asks for dates, it is
    // no filter); words that qualify risks, issues and milestones still filter them.
    const riskText = text.replace(/\bat[- ]risk\b/g, ' ');
    // "Is it at risk?" asks for the status, not for risk records.
    const aspects = firstMatchFirst(ASPECTS, text).filter(
      (a) => a !== 'risks' || /\brisks?\b/.test(riskText),
    );
    const severities = firstMatch(RISK_SEVERITY, riskText);
    const riskStatuses = firstMatch(RISK_STATUS, riskText);
    const priorities = firstMatch(ISSUE_PRIORITY, text);
    const issueStatuses = firstMatch(ISSUE_STATUS, text);
    const which = RX.missed.test(text) ? 'missed' : RX.upcoming.test(text) ? 'upcoming' : undefined;
    return {
      kind: 'project',
      aspects,
      terms,
      risks: { ...(severities ? { severities } : {}), ...(riskStatuses ? { statuses: riskStatuses } : {}) },
      issues: {
        ...(priorities ? { priorities } : {}),
        ...(issueStatuses ? { statuses: issueStatuses } : {}),
      },
      ...(which && aspects.includes('milestones') ? { milestones: which } : {}),
      ...(aspects.includes('history') && RX.latestReport.test(text) ? { latestReport: true } : {}),
    };
  }

  if (RX.overAllocated.test(text)) return { kind: 'overAllocated' };
  if (ctx.hasPerson) return { kind: 'person' };

  const grouping = groupingIn(text, comparedField(facets));
  if (
    grouping &&
    !RX.milestone.test(text) &&
    !RX.issue.test(text) &&
    !RX.risk.test(text.replace(/\bat[- ]risk\b/g, ' '))
  ) {
    const filter = projectFilterOf(text, facets);
    if (grouping.measure !== 'count') delete filter.money;
    return { kind: 'groups', grouping, filter };
  }

  if (RX.milestone.test(text)) {
    const which = RX.missed.test(text) ? 'missed' : RX.upcoming.test(text) ? 'upcoming' : undefined;
    if (which)
      return {
        kind: 'milestones',
        form,
        which,
        filter: projectFilterOf(text.replace(RX.missed, ' '), facets),
      };
  }

  // "at risk" is a project status, not a mention of risk records.
  if (RX.risk.test(text.replace(/\bat[- ]risk\b/g, ' '))) {
    const severities = firstMatch(RISK_SEVERITY, text);
    const statuses = firstMatch(RISK_STATUS, text) ?? (severities ? ['OPEN', 'MITIGATING'] : undefined);
    const filter = projectFilterOf(text.replace(RX.risk, ' '), facets);
    delete filter.statuses;
    return {
      kind: 'risks',
      form,
      ...(severities ? { severities } : {}),
      ...(statuses ? { statuses } : {}),
      filter,
      terms,
    };
  }

  if (RX.issue.test(text)) {
    const priorities = firstMatch(ISSUE_PRIORITY, text);
    const statuses = firstMatch(ISSUE_STATUS, text) ?? (priorities ? ['OPEN', 'IN_PROGRESS'] : undefined);
    const filter = projectFilterOf(text, facets);
    delete filter.statuses;
    return {
      kind: 'issues',
      form,
      ...(priorities ? { priorities } : {}),
      ...(statuses ? { statuses } : {}),
      filter,
      terms,
    };
  }

  if (RX.expensive.test(text) && !RX.overrun.test(text)) {
    const filter = projectFilterOf(text, facets);
    const n = Math.min(countIn(text) ?? 5, 25);
    return { kind: 'ranking', measure: /\bforecast/.test(text) ? 'forecastCost' : 'budget', n, filter };
  }

  if (RX.superlative.test(text) && (RX.overrun.test(text) || RX.slip.test(text))) {
    const n = Math.min(countIn(text) ?? 5, 25);
    const filter = projectFilterOf(text, facets);
    delete filter.overBudget;
    delete filter.late;
    if (RX.overrun.test(text)) {
      return { kind: 'ranking', measure: RX.percentage.test(text) ? 'overrunPercent' : 'overrun', n, filter };
    }
    return { kind: 'ranking', measure: 'slip', n, filter };
  }

  const filter = projectFilterOf(text, facets);
  if (RX.portfolio.test(text) && !filter.statuses && !filter.overBudget && !filter.late && !filter.money) {
    return { kind: 'portfolio', filter };
  }
  if (RX.sum.test(text)) {
    const field = firstMatch(SUM_FIELDS, text);
    if (field) return { kind: 'projectSum', field, filter, terms };
  }
  if (form === 'count' && (RX.project.test(text) || hasProjectFilter(filter))) {
    return { kind: 'projects', form, filter, terms };
  }
  if (hasProjectFilter(filter)) return { kind: 'projects', form, filter, terms };

  const types: string[] = [];
  if (RX.project.test(text)) types.push('project');
  if (/\bpeople\b|\bpersons?\b|\bresources?\b|\bstaff\b|\bwho\b/.test(text)) types.push('resource');
  if (RX.milestone.test(text)) types.push('milestone');
  return { kind: 'search', terms, ...(types.length === 1 ? { types } : {}) };
}
