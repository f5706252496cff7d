/**
 * The vocabulary of the Ask agent's intent rules (docs/agents.md, Ask): the ordered regular expressions that read
 * what a question asks — statuses, aspects of a project, risk and issue qualifiers, the money field of a sum — and
 * the question's search terms, its content words that are none of these. Pure.
 */
import type { ProjectStatus } from '../../repositories/projects.js';
import type { FacetFilter } from './facets.js';
import { PERIOD_RX } from './periods.js';
import { contentWords } from './text.js';

/** An amount of money a question compares with: "over $100 M", "under 5 million", "above $2.5bn". */
export const MONEY_RX =
  /\b(over|above|more than|greater than|at least|under|below|less than|at most)\s*(\$)?\s*(\d+(?:[.,]\d+)*)\s*(k|thousand|m|mm|mn|million|b|bn|billion)?\b/;

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

/** A numeric field of a project that can be summed. */
export type SumField = 'budget' | 'forecastCost' | 'actualCost';

/** The rules' regular expressions over the normalised question, by what they recognise. */
export const RX = {
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
  latestReport: /\b(?:last|latest|most recent|newest)\b(?: \w+){0,2} (?:status )?(?:reports?|update)\b/,
  advice:
    /^(?:should|shall|must) (?:i|we|they)\b|\bwhat should (?:i|we)\b|\bshould (?:i|we) (?:fire|cancel|kill|stop|hire|sack|replace|approve|fund)\b|\b(?:do|would) you (?:recommend|advise|suggest)\b|\bis it (?:wise|a good idea)\b/,
};

/** Words naming a project status. */
export const STATUS_WORDS: [RegExp, ProjectStatus[]][] = [
  [/\bat[- ]risk\b(?! of\b)/, ['AT_RISK']],
  [/\boff[- ]track\b/, ['OFF_TRACK']],
  [/\bon[- ]track\b/, ['ON_TRACK']],
  [/\bon[- ]hold\b|\bpaused\b|\bsuspended\b/, ['ON_HOLD']],
  [/\bplanned\b|\bnot (?:yet )?started\b/, ['PLANNED']],
  [/\bcompleted\b|\bfinished\b|\bclosed[- ]out\b/, ['COMPLETED']],
  [/\bcancel+ed\b/, ['CANCELLED']],
  [/\bon fire\b|\bburning\b|\bin flames\b|\bblowing up\b|\bcritical (?:state|condition)\b/, ['OFF_TRACK']],
  [/\bamber\b|\byellow\b|\bwobbl\w*|\bshaky\b/, ['AT_RISK']],
  [/\bgreen\b|\bhealthy\b/, ['ON_TRACK']],
  [
    /\bin trouble\b|\btroubled\b|\bstruggling\b|\bfailing\b|\bred\b|\bin the red\b|\bdistressed\b/,
    ['AT_RISK', 'OFF_TRACK'],
  ],
];

/** Words naming what a question about one project asks for, in the order answers give the aspects. */
export const ASPECTS: [ProjectAspect, RegExp][] = [
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

/** Words qualifying risks by severity (the first that matches wins). */
export const RISK_SEVERITY: [RegExp, string[]][] = [
  [/\bcritical\b/, ['CRITICAL']],
  [/\bhigh(?:est)?\b|\bsevere\b|\bserious\b|\bmajor\b|\bbiggest\b|\btop\b/, ['HIGH', 'CRITICAL']],
  [/\bmedium\b|\bmoderate\b/, ['MEDIUM']],
  [/\blow\b|\bminor\b/, ['LOW']],
];

/** Words qualifying risks by status (the first that matches wins). */
export const RISK_STATUS: [RegExp, string[]][] = [
  [/\bunmitigated\b|\bwithout (?:a )?mitigation\b/, ['OPEN']],
  [/\bbeing mitigated\b|\bmitigating\b|\bunder mitigation\b/, ['MITIGATING']],
  [/\baccepted\b/, ['ACCEPTED']],
  [/\bclosed\b/, ['CLOSED']],
  [/\bopen\b|\bactive\b|\bcurrent\b|\bunresolved\b|\boutstanding\b|\blive\b/, ['OPEN', 'MITIGATING']],
];

/** Words qualifying issues by priority (the first that matches wins). */
export const ISSUE_PRIORITY: [RegExp, string[]][] = [
  [/\bcritical\b|\burgent\b/, ['CRITICAL']],
  [/\bhigh(?:est)?\b|\bserious\b|\bmajor\b|\bbiggest\b|\btop\b/, ['HIGH', 'CRITICAL']],
  [/\bmedium\b/, ['MEDIUM']],
  [/\blow\b|\bminor\b/, ['LOW']],
];

/** Words qualifying issues by status (the first that matches wins). */
export const ISSUE_STATUS: [RegExp, string[]][] = [
  [/\bin progress\b|\bbeing worked\b/, ['IN_PROGRESS']],
  [/\bresolved\b|\bfixed\b/, ['RESOLVED']],
  [/\bclosed\b/, ['CLOSED']],
  [/\bopen\b|\bactive\b|\bunresolved\b|\boutstanding\b|\bcurrent\b/, ['OPEN', 'IN_PROGRESS']],
];

/** Words naming the money field a sum adds. */
export const SUM_FIELDS: [RegExp, SumField][] = [
  [/\bforecast(?:ed)?\b|\bestimate at completion\b|\beac\b/, 'forecastCost'],
  [/\bactual\b|\bspent\b|\bspend(?:ing)?\b/, 'actualCost'],
  [/\bbudget\w*|\bcosts?\b|\bworth\b|\bvalue\b|\bmoney\b/, 'budget'],
];

/** The value of the first row whose expression matches the text. */
export function firstMatch<T>(table: [RegExp, T][], text: string): T | undefined {
  for (const [rx, value] of table) if (rx.test(text)) return value;
  return undefined;
}

/** The values of every row whose expression matches the text, in the table's order. */
export function firstMatchFirst<T>(table: [T, RegExp][], text: string): T[] {
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
  /\banything\b|\beverything\b|\bcompare\b|\bversus\b|\bvs\b|\bgroup\w*|\bbreak(?:down| down)\b|\bsplit\b|\bper\b|\beach\b/,
  /\bmanagers?\b|\bstatus(?:es)?\b|\blargest\b|\bbiggest\b|\bcostliest\b|\bworst\b|\bmost\b|\bdelayed\b|\bmillions?\b|\bbillions?\b/,
  PERIOD_RX,
  MONEY_RX,
].map((rx) => new RegExp(rx.source, 'g'));

/**
 * The words of a question that may name a project: its content words without the intent vocabulary (a question
 * made only of vocabulary, "Which projects are late?", names none and needs no name search).
 */
export function nameWords(text: string): string[] {
  // Expressions that span words ("how is … doing") would swallow the name between them.
  let rest = text;
  for (const rx of NAME_VOCABULARY) rest = rest.replace(rx, ' ');
  return contentWords(rest);
}

/** The vocabulary without the expressions that span several words (see {@link nameWords}). */
const NAME_VOCABULARY = VOCABULARY.filter((rx) => !/\.\*|\.\{/.test(rx.source));

/**
 * The content words of the question that are not intent vocabulary, facet values or words of the subject's name
 * (`subjectWords`): the search terms.
 */
export function searchTerms(
  text: string,
  subjectWords: readonly string[],
  facets: readonly FacetFilter[],
): string[] {
  let rest = text;
  for (const rx of VOCABULARY) rest = rest.replace(rx, ' ');
  const drop = new Set<string>([
    ...subjectWords.map((w) => w.toLowerCase()),
    ...facets.flatMap((f) => f.values.flatMap((v) => contentWords(v))),
  ]);
  return contentWords(rest).filter((w) => !drop.has(w));
}
