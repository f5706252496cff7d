/**
 * The agent catalogue (`GET /agents`; docs/agents.md, Agents): for each agent what it analyses, what it reads, its
 * depths and its metrics with how each is computed. The analyses (./analyses/) produce exactly these metric names; a
 * unit test holds them to it.
 */
import type { Schema } from '../../schemas.js';

/** An agent id (spec `AgentId`). */
export type AgentId = Schema<'AgentId'>;
/** A depth (spec `AgentDepth`). */
export type AgentDepth = Schema<'AgentDepth'>;
/** A kind of record an agent reads (spec `AgentInput`). */
export type AgentInput = Schema<'AgentInput'>;
/** A catalogue entry (spec `Agent`). */
export type AgentDefinition = Schema<'Agent'>;
/** A metric definition (spec `AgentMetric`). */
export type AgentMetric = Schema<'AgentMetric'>;

const ALL_DEPTHS: AgentDepth[] = ['quick', 'standard', 'deep'];
const DEEP: AgentDepth[] = ['deep'];

/** Projects that are neither COMPLETED nor CANCELLED. */
const OPEN = 'open projects (not COMPLETED or CANCELLED)';
/** Projects that are not CANCELLED. */
const LIVE = 'projects that are not CANCELLED';

function metric(name: string, unit: string, description: string, depths?: AgentDepth[]): AgentMetric {
  return depths ? { name, unit, description, depths } : { name, unit, description };
}

/** The six analysis agents, in catalogue order. */
export const AGENTS: readonly AgentDefinition[] = [
  {
    id: 'portfolio-health',
    name: 'Portfolio health',
    description:
      'A health score (0–100) and RAG per open project from its schedule, cost, risk, milestone and capacity ' +
      'signals, each deduction with its reason and record; the portfolio distribution; at deep depth the projects ' +
      'whose RAG changed since their previous status report. Score = 100 − schedule (slip ÷ 180 days × 40, at most ' +
      '40) − cost (overrun % ÷ 10 % × 40, at most 40) − risk (15 per open CRITICAL, 8 per open HIGH, at most 30) − ' +
      'milestones (5 per overdue milestone, at most 15) − capacity (10 when someone allocated to it is over-allocated ' +
      'in the next 90 days); GREEN ≥ 75, AMBER ≥ 50, RED below. With both schedule and cost unknown the health is ' +
      'unknown.',
    depths: ALL_DEPTHS,
    scopes: ['all', 'project'],
    reads: ['projects', 'milestones', 'risks', 'allocations', 'status_reports'],
    changesRecords: false,
    metrics: [
      metric('projects', 'count', `Number of ${OPEN} analysed.`),
      metric('healthScored', 'count', 'Projects with a health score (schedule or cost known).'),
      metric(
        'healthUnknown',
        'count',
        'Projects whose schedule and cost are both unknown: no score, no RAG.',
      ),
      metric('green', 'count', 'Projects scored GREEN (score ≥ 75).'),
      metric('amber', 'count', 'Projects scored AMBER (50 ≤ score < 75).'),
      metric('red', 'count', 'Projects scored RED (score < 50).'),
      metric(
        'averageHealthScore',
        'score',
        'Mean health score of the scored projects; null when none is scored.',
      ),
      metric(
        'ragChanged',
        'count',
        'Projects whose latest status report (on or before asOf) has another RAG than the report before it (ON_TRACK GREEN, AT_RISK AMBER, OFF_TRACK RED).',
        DEEP,
      ),
      metric('ragImproved', 'count', 'Of those, the ones whose RAG got better.', DEEP),
      metric('ragWorsened', 'count', 'Of those, the ones whose RAG got worse.', DEEP),
    ],
  },
  {
    id: 'schedule-health',
    name: 'Schedule health',
    description:
      'Schedule slip in days (forecastEndDate − endDate, the baseline finish) per project, the largest slips, ' +
      'overdue milestones (not COMPLETED and due before asOf) and, at deep depth, slip velocity across the ' +
      'status reports. It marks each PENDING milestone whose due date has passed in the tenant’s time zone MISSED, ' +
      'exactly as the periodic missed-milestone sweep does (audit row and one milestone.missed event per milestone), ' +
      'before it reads them; it changes nothing else.',
    depths: ALL_DEPTHS,
    scopes: ['all', 'project'],
    reads: ['projects', 'milestones', 'status_reports'],
    changesRecords: true,
    metrics: [
      metric('projects', 'count', `Number of ${LIVE} analysed.`),
      metric(
        'projectsWithForecast',
        'count',
        'Projects with a forecast finish (forecastEndDate), so a known slip.',
      ),
      metric(
        'forecastUnknown',
        'count',
        'Projects without a forecast finish: slip unknown, left out of the figures.',
      ),
      metric(
        'projectsSlipping',
        'count',
        'Projects whose forecast finish is after the baseline finish (slip > 0).',
      ),
      metric(
        'averageSlipDays',
        'days',
        'Mean slip (forecastEndDate − endDate, in days) over the projects with a forecast.',
      ),
      metric('medianSlipDays', 'days', 'Median slip over the projects with a forecast.'),
      metric('maxSlipDays', 'days', 'The largest slip.'),
      metric(
        'overdueMilestones',
        'count',
        'Milestones not COMPLETED (as of asOf) whose due date is before asOf.',
      ),
      metric('missedMilestones', 'count', 'Of the overdue milestones, those with status MISSED.'),
      metric(
        'projectsWithSlipVelocity',
        'count',
        'Projects with at least two status reports on different dates with a known slip.',
        DEEP,
      ),
      metric(
        'averageSlipVelocity',
        'days_per_30_days',
        'Mean slip velocity: (slip at the latest report − slip at the earliest) ÷ days between them × 30.',
        DEEP,
      ),
      metric(
        'projectsSlippingRepeatedly',
        'count',
        'Projects whose forecast finish moved later in at least two reports.',
        DEEP,
      ),
    ],
  },
  {
    id: 'budget-health',
    name: 'Budget health',
    description:
      'Per project: variance at completion = budget − forecastCost, overrun = forecastCost − budget (also as a % of ' +
      'budget) and the cost performance index proxy = budget ÷ forecastCost (used where no earned value exists); ' +
      'the largest overruns by amount and by percentage; at deep depth budget growth across the status reports.',
    depths: ALL_DEPTHS,
    scopes: ['all', 'project'],
    reads: ['projects', 'status_reports'],
    changesRecords: false,
    metrics: [
      metric('projects', 'count', `Number of ${LIVE} analysed.`),
      metric('projectsWithForecast', 'count', 'Projects with both a budget and a forecast cost.'),
      metric(
        'forecastUnknown',
        'count',
        'Projects without a budget or a forecast cost: left out of the figures.',
      ),
      metric('totalBudget', 'currency', 'Σ budget over the projects with both a budget and a forecast cost.'),
      metric('totalForecastCost', 'currency', 'Σ forecastCost over the same projects.'),
      metric(
        'varianceAtCompletion',
        'currency',
        'Σ (budget − forecastCost) over the same projects; negative is an overrun.',
      ),
      metric(
        'cpiProxy',
        'ratio',
        'Cost performance index proxy of the portfolio: Σ budget ÷ Σ forecastCost.',
      ),
      metric('projectsOverBudget', 'count', 'Projects whose forecastCost is above their budget.'),
      metric('totalOverrun', 'currency', 'Σ (forecastCost − budget) over the projects over budget.'),
      metric('largestOverrun', 'currency', 'The largest overrun by amount (forecastCost − budget).'),
      metric('largestOverrunPercent', 'percent', 'The largest overrun as a percentage of budget.'),
      metric('actualCost', 'currency', 'Σ actualCost (cost to date) over the projects where it is known.'),
      metric('actualCostUnknown', 'count', 'Projects whose cost to date is unknown.'),
      metric(
        'projectsWithBudgetGrowth',
        'count',
        'Projects whose forecast cost rose between their earliest and latest status report.',
        DEEP,
      ),
      metric(
        'averageBudgetGrowthPercent',
        'percent',
        'Mean budget growth: (latest reported forecastCost − earliest) ÷ earliest × 100, over projects with two or more reports with a forecast cost.',
        DEEP,
      ),
    ],
  },
  {
    id: 'risk-assessment',
    name: 'Risk assessment',
    description:
      'Risk exposure (Σ likelihood × impact of the risks that are not CLOSED), a 5 × 5 heat map, unmitigated ' +
      'HIGH/CRITICAL risks (still OPEN: no mitigation under way) and overdue mitigations (OPEN or MITIGATING past ' +
      'their due date). On open projects with no risk records it proposes candidate risks from the signals it sees ' +
      '(a slip, an overrun; at deep depth repeated slips and budget growth in the status reports) as ' +
      'recommendations only: it never creates a risk.',
    depths: ALL_DEPTHS,
    scopes: ['all', 'project'],
    reads: ['projects', 'risks', 'status_reports'],
    changesRecords: false,
    metrics: [
      metric('risks', 'count', 'Risks of the scope, whatever their status.'),
      metric('openRisks', 'count', 'Risks that are not CLOSED (OPEN, MITIGATING, ACCEPTED).'),
      metric('exposure', 'score', 'Σ likelihood × impact over the open risks.'),
      metric(
        'averageScore',
        'score',
        'Mean likelihood × impact of the open risks; null when there are none.',
      ),
      metric('criticalRisks', 'count', 'Open risks of severity CRITICAL.'),
      metric('highRisks', 'count', 'Open risks of severity HIGH.'),
      metric('unmitigatedHighRisks', 'count', 'HIGH or CRITICAL risks still OPEN (no mitigation under way).'),
      metric('overdueMitigations', 'count', 'OPEN or MITIGATING risks whose dueDate is before asOf.'),
      metric(
        'projectsWithoutRisks',
        'count',
        'Open projects (not COMPLETED or CANCELLED) with no risk record.',
      ),
      metric(
        'candidateRisks',
        'count',
        'Candidate risks proposed for projects without risk records (standard and deep).',
        ['standard', 'deep'],
      ),
    ],
  },
  {
    id: 'resource-capacity',
    name: 'Resource capacity',
    description:
      'Over-allocated people and the periods in which their allocations sum above 100 % (the conflicts of ' +
      'GET /allocations/conflicts), and utilisation per person and per role: allocated working days ÷ available ' +
      'working days × 100 over the horizon (90 days from asOf; 365 at deep depth). Inactive people are left out.',
    depths: ALL_DEPTHS,
    scopes: ['all', 'project'],
    reads: ['resources', 'allocations', 'projects'],
    changesRecords: false,
    metrics: [
      metric('horizonDays', 'days', 'Days looked ahead from asOf (90; 365 at deep depth).'),
      metric(
        'resources',
        'count',
        'Active people in scope (for a project: those allocated to it in the horizon).',
      ),
      metric('allocatedResources', 'count', 'Of those, people with an allocation in the horizon.'),
      metric(
        'overAllocatedResources',
        'count',
        'People over-allocated (above 100 %) at some time in the horizon.',
      ),
      metric('overAllocationPeriods', 'count', 'Over-allocation periods (conflicts) in the horizon.'),
      metric(
        'peakAllocationPercent',
        'percent',
        'The highest total allocation of one person in the horizon; null without allocations.',
      ),
      metric(
        'averageUtilisation',
        'percent',
        'Σ allocated working days ÷ Σ available working days × 100 over the people in scope.',
      ),
      metric('underUtilisedResources', 'count', 'People whose utilisation in the horizon is below 50 %.'),
      metric(
        'roles',
        'count',
        'Distinct roles of the people in scope (a person without a role counts as "unassigned").',
      ),
    ],
  },
  {
    id: 'status-report',
    name: 'Status report',
    description:
      'A written status report of one project (scope project:<uuid>) or of the portfolio (scope all): overall ' +
      'status (RAG from the portfolio-health score), schedule, cost, risks and the decisions needed, every ' +
      'sentence cited. At deep depth it adds the trend since the previous status report. The report is in ' +
      'output.report (standard and deep); its decisions are also findings.',
    depths: ALL_DEPTHS,
    scopes: ['all', 'project'],
    reads: ['projects', 'milestones', 'risks', 'issues', 'allocations', 'status_reports'],
    changesRecords: false,
    metrics: [
      metric(
        'projects',
        'count',
        `Projects reported on: the ${OPEN} of the portfolio, or the one project of the scope.`,
      ),
      metric('green', 'count', 'Projects scored GREEN by the portfolio-health score.'),
      metric('amber', 'count', 'Projects scored AMBER.'),
      metric('red', 'count', 'Projects scored RED.'),
      metric('healthUnknown', 'count', 'Projects whose schedule and cost are both unknown.'),
      metric('averageHealthScore', 'score', 'Mean health score (the project’s own score for one project).'),
      metric('projectsSlipping', 'count', 'Projects whose forecast finish is after the baseline finish.'),
      metric('varianceAtCompletion', 'currency', 'Σ (budget − forecastCost) where both are known.'),
      metric('openRisks', 'count', 'Risks that are not CLOSED.'),
      metric('exposure', 'score', 'Σ likelihood × impact of the open risks.'),
      metric('overdueMilestones', 'count', 'Milestones not COMPLETED whose due date is before asOf.'),
      metric('openIssues', 'count', 'Issues that are OPEN or IN_PROGRESS.'),
      metric('decisionsNeeded', 'count', 'Decisions the report asks for.'),
    ],
  },
];

/** The catalogue entry of an agent. @throws Error for an unknown id (the spec's enum keeps them out). */
export function agentDefinition(id: AgentId): AgentDefinition {
  const found = AGENTS.find((a) => a.id === id);
  if (!found) throw new Error(`unknown agent ${id}`);
  return found;
}
