/**
 * The intent rules of the Ask agent (docs/design.md, "Ask"; issue 11): what a portfolio manager asks most, read from
 * the question by ordered regular expressions, deterministically. A question no rule claims goes to full-text
 * retrieval with its content words.
 *
 * This module is pure: the project a question names (a subject) and the tenant's tag vocabulary are found by the
 * caller (retrieval.ts) and passed in.
 */
import type { ProjectStatus } from '../../repositories/projects.js';
import { contentWords, countIn } from './text.js';

/** What a question about one project asks for. */
export type ProjectAspect =
  | 'status'
  | 'budget'
  | 'dates'
  | 'manager'
  | 'team'
  | 'risks'
  | 'issues'
  | 'milestones'
  | 'history'
  /** Status, budget and dates together ("How is X doing?"). */
  | 'overview';

/**
 * A descriptive field of projects a question can filter on: the NYC columns (borough, category, managing and client
 * agency, each a comma-separated list matched item by item), `agency` (the managing or the client agency: an agency
 * named without saying which role) and the project's tags.
 */
export type FacetField = 'borough' | 'category' | 'agency' | 'managingAgency' | 'clientAgency' | 'tags';

/** One value of a facet in the tenant's projects, as written there (the vocabulary of facet filters). */
export interface FacetValue {
  field: FacetField;
  value: string;
}

/** A facet filter: projects whose field has one of these values. */
export interface FacetFilter {
  field: FacetField;
  values: string[];
}

/** How projects are filtered by a portfolio question; every given condition must hold. */
export interface ProjectFilter {
  statuses?: ProjectStatus[];
  /** Forecast cost above budget. */
  overBudget?: boolean;
  /** Forecast finish after the baseline finish. */
  late?: boolean;
  /** Facet filters, combined with AND (the values of one facet with OR). */
  facets?: FacetFilter[];
}

/** A numeric field of a project that can be summed. */
export type SumField = 'budget' | 'forecastCost' | 'actualCost';

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
    }
  | { kind: 'projects'; form: 'list' | 'count'; filter: ProjectFilter; terms: string[] }
  | { kind: 'projectSum'; field: SumField; filter: ProjectFilter; terms: string[] }
  | { kind: 'ranking'; measure: RankingMeasure; n: number; filter: ProjectFilter }
  | { kind: 'portfolio'; filter: ProjectFilter }
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
  | { kind: 'search'; terms: string[]; types?: string[] };

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

const RX = {
  count: /\bhow many\b|\bnumber of\b|\bcount\b/,
  sum: /\b(?:total|sum|combined|aggregate|altogether)\b/,
  superlative: /\b(?:largest|biggest|top|worst|highest|greatest|longest|most|maximum)\b/,
  expensive:
    /\bmost expensive\b|\b(?:largest|biggest|highest|greatest|top)\b.{0,30}\b(?:budgets?|forecast(?:ed)? costs?)\b/,
  portfolio:
    /\bhow (?:is|are) (?:the |our |my )?(?:portfolio|projects|we|things)\b.*\bdoing\b|\b(?:portfolio|overall) (?:status|health|overview|summary)\b|\b(?:status|health|overview|summary|state) of (?:the |our |my )?(?:portfolio|projects)\b|\bsummar(?:y|i[sz]e) (?:the |our |my )?(?:portfolio|projects)\b/,
  percentage: /\bpercent(?:age)?s?\b|%|\brelative\b|\bproportion(?:al|ally)?\b|\bratio\b/,
  overrun:
    /\bover ?runs?\b|\bover[- ]budget\b|\bover (?:their|its|the) budgets?\b|\bexceed\w* (?:their |its |the )?budgets?\b|\babove (?:their |its |the )?budgets?\b|\bcost (?:growth|increases?)\b|\bover ?spen(?:t|d|ding)\b|\bbudget overruns?\b/,
  slip: /\bslips?\b|\bslipp\w*|\bdelay\w*|\blate\b|\blatest finish\b|\bbehind (?:schedule|plan)\b|\bschedule (?:slip|delay|overrun)s?\b|\bpast (?:their|its|the) (?:end|finish|deadline|due)(?: dates?)?\b/,
  overAllocated:
    /\bover[- ]?allocat\w*|\bover[- ]?book\w*|\bover[- ]?commit\w*|\bover[- ]?loaded\b|\bover capacity\b|\bdouble[- ]booked\b|\bmore than 100 ?%/,
  milestone: /\bmilestones?\b/,
  missed: /\bmissed\b|\boverdue\b|\blate\b|\bpast due\b|\bslipped\b|\bbehind\b|\bnot (?:met|achieved|hit)\b/,
  upcoming: /\bupcoming\b|\bnext\b|\bdue soon\b|\bcoming up\b|\bfuture\b/,
  risk: /\brisks?\b/,
  issue: /\bissues?\b|\bproblems?\b|\bblockers?\b/,
  project: /\bprojects?\b/,
};

const STATUS_WORDS: [RegExp, ProjectStatus[]][] = [
  [/\bat[- ]risk\b(?! of\b)/, ['AT_RISK']],
  [/\boff[- ]track\b/, ['OFF_TRACK']],
  [/\bon[- ]track\b/, ['ON_TRACK']],
  [/\bon[- ]hold\b|\bpaused\b|\bsuspended\b/, ['ON_HOLD']],
  [/\bplanned\b|\bnot (?:yet )?started\b/, ['PLANNED']],
  [/\bcompleted\b|\bfinished\b|\bclosed[- ]out\b/, ['COMPLETED']],
  [/\bcancel+ed\b/, ['CANCELLED']],
  [/\bin trouble\b|\btroubled\b|\bstruggling\b|\bfailing\b|\bred\b/, ['AT_RISK', 'OFF_TRACK']],
];

const ASPECTS: [ProjectAspect, RegExp][] = [
  ['risks', /\brisks?\b/],
  ['issues', RX.issue],
  ['milestones', RX.milestone],
  [
    'manager',
    /\bmanag(?:er|es|ing|ed)\b|\bwho (?:is )?(?:runs?|leads?|in charge|responsible|owns?)\b|\bowner\b|\bpm\b|\bleads?\b/,
  ],
  [
    'team',
    /\bteam\b|\bwho (?:is|are) (?:working|allocated|assigned|staffed)\b|\bstaff\w*|\ballocat\w*|\bworking on\b/,
  ],
  [
    'history',
    /\bhistory\b|\bhistorical\b|\bchanged?\b|\bchanges\b|\btrend\w*|\bover time\b|\bstatus reports?\b|\breports?\b|\bevolv\w*/,
  ],
  [
    'budget',
    /\bbudget\w*|\bcosts?\b|\bspen[dt]\w*|\bmoney\b|\bover ?run\w*|\bfund\w*|\bexpensive\b|\bvariance\b|\bestimate at completion\b|\beac\b|\bfinanc\w*/,
  ],
  [
    'dates',
    /\bwhen\b|\bdates?\b|\bdeadline\b|\bfinish\w*|\bcomplet\w*|\bend\b|\bstart\w*|\bschedule\w*|\blate\b|\bslip\w*|\bdelay\w*|\bbehind\b|\bdue\b|\btimeline\b|\bhow long\b/,
  ],
  [
    'overview',
    /\bhow (?:is|are)\b.*\bdoing\b|\bhow's\b.*\bdoing\b|\boverview\b|\btell me about\b|\bsummar(?:y|i[sz]e)\b|\bwhat about\b|\bupdate on\b/,
  ],
  [
    'status',
    /\bstatus\b|\bhow is\b|\bhow's\b|\bdoing\b|\bhealth\w*|\bon[- ]track\b|\bat[- ]risk\b|\boff[- ]track\b|\bprogress\b|\bstanding\b|\bstate\b|\bphase\b/,
  ],
];

const RISK_SEVERITY: [RegExp, string[]][] = [
  [/\bcritical\b/, ['CRITICAL']],
  [/\bhigh(?:est)?\b|\bsevere\b|\bserious\b|\bmajor\b|\bbiggest\b|\btop\b/, ['HIGH', 'CRITICAL']],
  [/\bmedium\b|\bmoderate\b/, ['MEDIUM']],
  [/\blow\b|\bminor\b/, ['LOW']],
];

const RISK_STATUS: [RegExp, string[]][] = [
  [/\bunmitigated\b|\bwithout (?:a )?mitigation\b/, ['OPEN']],
  [/\bbeing mitigated\b|\bmitigating\b|\bunder mitigation\b/, ['MITIGATING']],
  [/\baccepted\b/, ['ACCEPTED']],
  [/\bclosed\b/, ['CLOSED']],
  [/\bopen\b|\bactive\b|\bcurrent\b|\bunresolved\b|\boutstanding\b|\blive\b/, ['OPEN', 'MITIGATING']],
];

const ISSUE_PRIORITY: [RegExp, string[]][] = [
  [/\bcritical\b|\burgent\b/, ['CRITICAL']],
  [/\bhigh(?:est)?\b|\bserious\b|\bmajor\b|\bbiggest\b|\btop\b/, ['HIGH', 'CRITICAL']],
  [/\bmedium\b/, ['MEDIUM']],
  [/\blow\b|\bminor\b/, ['LOW']],
];

const ISSUE_STATUS: [RegExp, string[]][] = [
  [/\bin progress\b|\bbeing worked\b/, ['IN_PROGRESS']],
  [/\bresolved\b|\bfixed\b/, ['RESOLVED']],
  [/\bclosed\b/, ['CLOSED']],
  [/\bopen\b|\bactive\b|\bunresolved\b|\boutstanding\b|\bcurrent\b/, ['OPEN', 'IN_PROGRESS']],
];

const SUM_FIELDS: [RegExp, SumField][] = [
  [/\bforecast(?:ed)?\b|\bestimate at completion\b|\beac\b/, 'forecastCost'],
  [/\bactual\b|\bspent\b|\bspend(?:ing)?\b/, 'actualCost'],
  [/\bbudget\w*|\bcosts?\b|\bworth\b|\bvalue\b|\bmoney\b/, 'budget'],
];

function firstMatch<T>(table: [RegExp, T][], text: string): T | undefined {
  for (const [rx, value] of table) if (rx.test(text)) return value;
  return undefined;
}

function firstMatchFirst<T>(table: [T, RegExp][], text: string): T[] {
  return table.filter(([, rx]) => rx.test(text)).map(([value]) => value);
}

/** Every regular expression of the rules: their words are intent vocabulary, never search terms. */
const VOCABULARY: RegExp[] = [
  ...Object.values(RX),
  ...STATUS_WORDS.map(([rx]) => rx),
  ...ASPECTS.map(([, rx]) => rx),
  ...RISK_SEVERITY.map(([rx]) => rx),
  ...RISK_STATUS.map(([rx]) => rx),
  ...ISSUE_PRIORITY.map(([rx]) => rx),
  ...ISSUE_STATUS.map(([rx]) => rx),
  ...SUM_FIELDS.map(([rx]) => rx),
  /\bpeople\b|\bpersons?\b|\bresources?\b|\bstaff\b|\bmilestones?\b|\bprojects?\b|\bportfolio\b|\bagency\b|\bborough\b/,
  /\bmanag(?:e|es|ed|ing)\b|\brun by\b|\bclients?\b|\bagenc(?:y|ies)\b|\bboroughs?\b|\bcategor(?:y|ies)\b|\bhistory\b/,
  /\bpriorit\w*|\bseverit\w*|\bscores?\b|\blikelihood\b|\bimpact\b|\brunning\b|\bexpected\b|\bgoing\b|\bstill\b/,
  /\bin the city\b|\bcity\b|\bnyc\b|\bprogramme\b|\bprogram\b|\bwhich\b|\bones?\b|\bwork\b|\bhave\b|\bbeen\b/,
].map((rx) => new RegExp(rx.source, 'g'));

/** Which field a value named in a question filters when several fields have it (see {@link facetsIn}). */
const FACET_PRIORITY: FacetField[] = [
  'borough',
  'category',
  'agency',
  'managingAgency',
  'clientAgency',
  'tags',
];

/**
 * The facet values a question names as whole words, grouped by field: short all-caps values (agency acronyms like
 * `DEP`) only in capitals, so "it" never matches `IT`; others case-insensitively. An agency is the managing agency
 * when the question says "managed by" (or "manages", "run by"), the client agency when it says "client" (or "on
 * behalf of"), and either otherwise (`agency`). A value several fields have filters the first of borough, category,
 * agency, tags. A value inside a longer value that also matched ("Queens" in "Queens Borough") is not a second
 * filter.
 */
export function facetsIn(question: string, vocabulary: readonly FacetValue[]): FacetFilter[] {
  const byValue = new Map<string, FacetValue[]>();
  for (const entry of vocabulary) {
    const value = entry.value.trim();
    if (value.length < 2) continue;
    const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
    const acronym = value.length <= 5 && value === value.toUpperCase() && /^[A-Z0-9&/+-]+$/.test(value);
    const rx = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, acronym ? 'u' : 'iu');
    if (!rx.test(question)) continue;
    const key = value.toLowerCase();
    byValue.set(key, [...(byValue.get(key) ?? []), { field: entry.field, value }]);
  }
  const keys = [...byValue.keys()].filter((k) => ![...byValue.keys()].some((o) => o !== k && o.includes(k)));
  const role = /\bclient\b|\bon behalf of\b/i.test(question)
    ? 'clientAgency'
    : /\bmanag(?:ed|es|e|ing)\b|\brun by\b/i.test(question)
      ? 'managingAgency'
      : 'agency';
  const out = new Map<FacetField, string[]>();
  for (const key of keys) {
    const options = (byValue.get(key) ?? []).map((o) =>
      o.field === 'managingAgency' || o.field === 'clientAgency' ? { ...o, field: role as FacetField } : o,
    );
    const chosen = FACET_PRIORITY.map((f) => options.find((o) => o.field === f)).find((o) => o !== undefined);
    if (!chosen) continue;
    const values = out.get(chosen.field) ?? [];
    if (!values.includes(chosen.value)) values.push(chosen.value);
    out.set(chosen.field, values);
  }
  return FACET_PRIORITY.filter((f) => out.has(f)).map((field) => ({ field, values: out.get(field) ?? [] }));
}

/**
 * The words of a question that may name a project: its content words without the intent vocabulary (a question
 * made only of vocabulary, "Which projects are late?", names none and needs no name search).
 */
export function nameWords(text: string): string[] {
  return searchTerms(text, { hasSubject: false }, []);
}

/** The content words of the question that are not intent vocabulary, facet values or the subject's name. */
export function searchTerms(text: string, ctx: ParseContext, facets: readonly FacetFilter[]): string[] {
  let rest = text;
  for (const rx of VOCABULARY) rest = rest.replace(rx, ' ');
  const drop = new Set<string>([
    ...(ctx.subjectWords ?? []).map((w) => w.toLowerCase()),
    ...facets.flatMap((f) => f.values.flatMap((v) => contentWords(v))),
  ]);
  return contentWords(rest).filter((w) => !drop.has(w));
}

function projectFilterOf(text: string, facets: FacetFilter[]): ProjectFilter {
  const filter: ProjectFilter = {};
  const statuses = new Set<ProjectStatus>();
  for (const [rx, values] of STATUS_WORDS) if (rx.test(text)) for (const v of values) statuses.add(v);
  if (statuses.size > 0) filter.statuses = [...statuses];
  if (RX.overrun.test(text)) filter.overBudget = true;
  if (RX.slip.test(text)) filter.late = true;
  if (facets.length > 0) filter.facets = facets;
  return filter;
}

function hasProjectFilter(f: ProjectFilter): boolean {
  return Boolean(f.statuses || f.overBudget || f.late || f.facets);
}

/**
 * Reads the intent of a question.
 * @param question the question as asked (facet values are matched against it, case matters for acronyms).
 * @param text the question through {@link normalise}.
 */
export function parseIntent(question: string, text: string, ctx: ParseContext): Intent {
  const facets = facetsIn(question, ctx.facets ?? []);
  const terms = searchTerms(text, ctx, facets);
  const form = RX.count.test(text) ? 'count' : 'list';

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
    };
  }

  if (RX.overAllocated.test(text)) return { kind: 'overAllocated' };
  if (ctx.hasPerson) return { kind: 'person' };

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
  if (RX.portfolio.test(text) && !filter.statuses && !filter.overBudget && !filter.late) {
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
