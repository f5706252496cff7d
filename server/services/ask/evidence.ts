/**
 * What retrieval hands to an answer engine (docs/agents.md, Ask): the intent as understood and the tenant's records
 * that answer it, with ids. The embedded engine (embedded.ts) writes the answer from these by rule; the model engine
 * (model-engine.ts: a model that rephrases) gets the same evidence and must cite only these records.
 */

import { daysBetween } from '../../dates.js';
import type { AllocationRecord } from '../../repositories/allocations.js';
import type { IssueRecord } from '../../repositories/issues.js';
import type { MilestoneRecord } from '../../repositories/milestones.js';
import type { ProjectRecord } from '../../repositories/projects.js';
import type { ResourceRecord } from '../../repositories/resources.js';
import type { RiskRecord } from '../../repositories/risks.js';
import type { StoredStatusReport } from '../../repositories/status-reports.js';
import type { CitationType } from '../agents/citations.js';
import type { AllocationConflict } from '../allocation-conflicts.js';
import type { Grouping } from './describing.js';
import type { Intent, ProjectFilter, RankingMeasure } from './intents.js';
import type { ProjectAspect, SumField } from './vocabulary.js';

/** A project with the figures the answers derive from it (null where an input is unknown). */
export interface ProjectFigures {
  project: ProjectRecord;
  /** forecastCost − budget (positive: over budget). */
  overrun: number | null;
  /** overrun ÷ budget × 100. */
  overrunPercent: number | null;
  /** Days from endDate to forecastEndDate (positive: late). */
  slipDays: number | null;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** A project's overrun and slip (docs/design.md: unknown inputs give null, never 0). */
export function figuresOf(project: ProjectRecord): ProjectFigures {
  const overrun =
    project.budget !== null && project.forecastCost !== null
      ? round2(project.forecastCost - project.budget)
      : null;
  const overrunPercent =
    overrun !== null && project.budget !== null && project.budget > 0
      ? (overrun / project.budget) * 100
      : null;
  const slipDays = project.forecastEndDate ? daysBetween(project.endDate, project.forecastEndDate) : null;
  return { project, overrun, overrunPercent, slipDays };
}

/** One group: its name, its projects, and (for a money measure) the sum of the known values and the unknown ones. */
export interface ProjectGroup {
  name: string;
  projects: ProjectFigures[];
  /** Sum of the measure's field over the projects that have it; null for a count. */
  total: number | null;
  /** Projects whose value of the measure's field is unknown (not summed). */
  unknown: ProjectFigures[];
}

/** A risk, issue or milestone with the project it belongs to. */
export interface WithProject<R> {
  record: R;
  project: ProjectRecord;
}

/** A full-text hit: the record, its project (if any) and the text that matched. */
export interface SearchEvidence {
  type: CitationType;
  record: ProjectRecord | RiskRecord | IssueRecord | MilestoneRecord | ResourceRecord | StoredStatusReport;
  project: ProjectRecord | null;
  /** The sentence of the record's text that matched best. */
  snippet: string;
}

/** One project's answer to a project question. */
export interface ProjectDetail {
  figures: ProjectFigures;
  aspects: ProjectAspect[];
  manager?: ResourceRecord | null;
  risks?: RiskRecord[];
  issues?: IssueRecord[];
  milestones?: MilestoneRecord[];
  team?: { allocation: AllocationRecord; resource: ResourceRecord }[];
  /** The project's status reports, oldest first (the history aspect). */
  history?: StoredStatusReport[];
  /** The project's newest status report (the status aspect), null when it has none. */
  latestReport?: StoredStatusReport | null;
  /** Search hits within the project, for a question about it no aspect covers. */
  hits?: SearchEvidence[];
}

/** What one person works on: allocations, projects managed, open risks owned and open issues assigned. */
export interface PersonDetail {
  resource: ResourceRecord;
  allocations: { allocation: AllocationRecord; project: ProjectRecord }[];
  manages: ProjectRecord[];
  risks: WithProject<RiskRecord>[];
  issues: WithProject<IssueRecord>[];
}

/** What an intent found. */
export type Finding =
  | { kind: 'project'; details: ProjectDetail[]; filters: Extract<Intent, { kind: 'project' }> }
  | {
      kind: 'projects';
      form: 'list' | 'count';
      filter: ProjectFilter;
      terms: string[];
      projects: ProjectFigures[];
    }
  | {
      kind: 'projectSum';
      field: SumField;
      filter: ProjectFilter;
      terms: string[];
      /** Projects whose value is known (summed) and those whose value is unknown (not summed). */
      known: ProjectFigures[];
      unknown: ProjectFigures[];
    }
  | {
      kind: 'ranking';
      measure: RankingMeasure;
      n: number;
      filter: ProjectFilter;
      projects: ProjectFigures[];
    }
  | {
      kind: 'risks';
      intent: Extract<Intent, { kind: 'risks' }>;
      risks: WithProject<RiskRecord>[];
    }
  | {
      kind: 'issues';
      intent: Extract<Intent, { kind: 'issues' }>;
      issues: WithProject<IssueRecord>[];
    }
  | {
      kind: 'milestones';
      intent: Extract<Intent, { kind: 'milestones' }>;
      today: string;
      milestones: WithProject<MilestoneRecord>[];
    }
  | {
      kind: 'overAllocated';
      today: string;
      /** The people the question named (the answer is about them only), or null for everyone. */
      named: ResourceRecord[] | null;
      people: {
        resource: ResourceRecord;
        conflicts: AllocationConflict[];
        allocations: Map<string, AllocationRecord>;
        projects: Map<string, ProjectRecord>;
      }[];
    }
  | { kind: 'search'; terms: string[]; hits: SearchEvidence[] }
  | { kind: 'person'; people: PersonDetail[] }
  /** A request for advice or a decision: answered with what Ask can say instead, citing nothing. */
  | { kind: 'advice' }
  /** Projects grouped by a facet, the manager or the status (./groups.ts), largest group first. */
  | {
      kind: 'groups';
      grouping: Grouping;
      filter: ProjectFilter;
      groups: ProjectGroup[];
      /** Projects with no value for the grouping field. */
      ungrouped: ProjectFigures[];
    }
  /** Every project of the portfolio (or of the filter), grouped by status, most projects first. */
  | { kind: 'portfolio'; filter: ProjectFilter; groups: { status: string; projects: ProjectFigures[] }[] };

/**
 * A sentence retrieval adds to the answer (docs/agents.md, Ask): how a described project was chosen ("The largest
 * project by budget is …"), which projects a name left undecided, how a time word was read and against which date,
 * and what the tenant has no records of (and what would fill them). `{0}`, `{1}`… in `text` stand for the citation
 * markers of `projects[0]`, `projects[1]`…
 */
export interface EvidenceNote {
  /** Before the answer (scope, ambiguity, time) or after it (what is missing). */
  place: 'before' | 'after';
  text: string;
  projects?: { figures: ProjectFigures; fields: string[] }[];
}

/** The evidence of one question: the question, the restriction to a project if any, and what was found. */
export interface Evidence {
  /** Sentences retrieval adds around the answer (see {@link EvidenceNote}). */
  notes?: EvidenceNote[];
  question: string;
  /** The request's `projectId`, when the answer is restricted to it. */
  projectId: string | null;
  /** The tenant's currency (ISO 4217), for money. */
  currency: string;
  finding: Finding;
}

/** One record of the evidence, whatever the finding: what a second engine may cite (and nothing else). */
export interface EvidenceRecord {
  type: CitationType;
  id: string;
  record: unknown;
}

/**
 * Every record a finding holds, each once, in the order the embedded engine presents them: the closed set of
 * records an answer to this question may cite (docs/agents.md, Bring your own model: a model's sentences are
 * checked against it).
 */
export function evidenceRecords(finding: Finding): EvidenceRecord[] {
  const out = new Map<string, EvidenceRecord>();
  const add = (type: CitationType, record: { id: string }) => {
    if (!out.has(`${type}:${record.id}`)) out.set(`${type}:${record.id}`, { type, id: record.id, record });
  };
  const projects = (list: ProjectFigures[]) => {
    for (const f of list) add('project', f.project);
  };
  switch (finding.kind) {
    case 'project':
      for (const d of finding.details) {
        add('project', d.figures.project);
        if (d.manager) add('resource', d.manager);
        for (const r of d.risks ?? []) add('risk', r);
        for (const i of d.issues ?? []) add('issue', i);
        for (const m of d.milestones ?? []) add('milestone', m);
        for (const t of d.team ?? []) add('allocation', t.allocation);
        if (d.latestReport) add('status_report', d.latestReport);
        for (const r of d.history ?? []) add('status_report', r);
        for (const h of d.hits ?? []) add(h.type, h.record);
      }
      break;
    case 'projects':
    case 'ranking':
      projects(finding.projects);
      break;
    case 'projectSum':
      projects([...finding.known, ...finding.unknown]);
      break;
    case 'portfolio':
      for (const g of finding.groups) projects(g.projects);
      break;
    case 'groups':
      for (const g of finding.groups) projects([...g.projects, ...g.unknown]);
      projects(finding.ungrouped);
      break;
    case 'risks':
      for (const r of finding.risks) add('risk', r.record);
      break;
    case 'issues':
      for (const i of finding.issues) add('issue', i.record);
      break;
    case 'milestones':
      for (const m of finding.milestones) add('milestone', m.record);
      break;
    case 'overAllocated':
      for (const r of finding.named ?? []) add('resource', r);
      for (const p of finding.people) {
        add('resource', p.resource);
        for (const c of p.conflicts) {
          for (const a of c.allocations) {
            const allocation = p.allocations.get(a.allocationId);
            if (allocation) add('allocation', allocation);
          }
        }
      }
      break;
    case 'search':
      for (const h of finding.hits) add(h.type, h.record);
      break;
    case 'person':
      for (const p of finding.people) {
        add('resource', p.resource);
        for (const a of p.allocations) add('allocation', a.allocation);
        for (const m of p.manages) add('project', m);
        for (const r of p.risks) add('risk', r.record);
        for (const i of p.issues) add('issue', i.record);
      }
      break;
  }
  return [...out.values()];
}
