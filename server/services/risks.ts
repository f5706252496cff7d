/**
 * Risks: score = likelihood × impact and severity derived from it unless the client sets it (docs/design.md).
 */
import { v7 as uuidv7 } from 'uuid';
import type { Page, PageRequest } from '../repositories/lists.js';
import {
  listRisks,
  type RiskFields,
  type RiskFilter,
  type RiskRecord,
  risks,
} from '../repositories/risks.js';
import type { Schema } from '../schemas.js';
import type { Actor, ServiceDeps } from './context.js';
import { isEscalation } from './event-rules.js';
import { assertReference } from './references.js';
import { createRecord, getRecord, inWrite, patched, updateRecord, type VersionedKind } from './versioned.js';

/** Body of POST /risks (spec `RiskCreate`); likelihood and impact are integers 1–5 (seed). */
export type RiskCreateInput = Schema<'RiskCreate'>;

/** Body of PATCH /risks/{id} (spec `RiskUpdate`); `severity: null` returns the risk to the derived severity. */
export type RiskUpdateInput = Schema<'RiskUpdate'>;

const RISK: VersionedKind<RiskRecord, RiskFields> = { table: risks, resourceType: 'risk' };

/**
 * Severity of a likelihood × impact score (docs/design.md): LOW 1–4, MEDIUM 5–9, HIGH 10–16, CRITICAL 20–25.
 * (17–19 cannot occur on a 5 × 5 matrix.)
 */
export function severityOfScore(score: number): Schema<'RiskSeverity'> {
  if (score >= 20) return 'CRITICAL';
  if (score >= 10) return 'HIGH';
  if (score >= 5) return 'MEDIUM';
  return 'LOW';
}

/** Risk use cases. */
export class RiskService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * Creates a risk (status OPEN unless given).
   * @throws AppError 422 when `projectId` names no project of the caller's tenant or `ownerId` no resource.
   */
  async create(actor: Actor, input: RiskCreateInput): Promise<RiskRecord> {
    const score = input.likelihood * input.impact;
    const fields: RiskFields = {
      projectId: input.projectId,
      title: input.title,
      description: input.description ?? null,
      likelihood: input.likelihood,
      impact: input.impact,
      score,
      severity: input.severity ?? severityOfScore(score),
      severitySource: input.severity ? 'MANUAL' : 'DERIVED',
      status: input.status ?? 'OPEN',
      ownerId: input.ownerId ?? null,
      mitigation: input.mitigation ?? null,
      dueDate: input.dueDate ?? null,
    };
    return inWrite(this.deps, actor, async (w) => {
      await assertReference(w.trx, actor.tenantId, 'project', 'projectId', input.projectId);
      await assertReference(w.trx, actor.tenantId, 'resource', 'ownerId', fields.ownerId);
      const risk = await createRecord(w, RISK, uuidv7(), fields);
      await this.deps.events.emit(
        w.trx,
        actor.tenantId,
        'risk.created',
        { riskId: risk.id, projectId: risk.projectId, risk },
        w.now,
      );
      return risk;
    });
  }

  /** One risk of the caller's tenant. @throws AppError 404. */
  async get(actor: Actor, id: string): Promise<RiskRecord> {
    return getRecord(this.deps.db.knex, actor, RISK, id);
  }

  /** A page of the tenant's risks; each given filter restricts the list (seed rule 1). */
  async list(actor: Actor, filter: RiskFilter, page: PageRequest): Promise<Page<RiskRecord>> {
    return listRisks(this.deps.db.knex, actor.tenantId, filter, page);
  }

  /**
   * Partial update. A new likelihood or impact recomputes the score, and the severity too while it is DERIVED;
   * a given severity makes it MANUAL; `severity: null` makes it DERIVED again.
   * @throws AppError 404; 412 If-Match mismatch; 409 on a concurrent write; 422 when `ownerId` names no resource.
   */
  async update(actor: Actor, id: string, input: RiskUpdateInput, ifMatch?: string): Promise<RiskRecord> {
    return inWrite(this.deps, actor, async (w) => {
      const { before, after, changed } = await updateRecord(w, RISK, {
        id,
        ifMatch,
        apply: (current) => {
          const { severity, ...rest } = input;
          const next = patched(risks.fieldsOf(current), rest);
          next.score = next.likelihood * next.impact;
          if (severity === null) next.severitySource = 'DERIVED';
          else if (severity !== undefined) {
            next.severitySource = 'MANUAL';
            next.severity = severity;
          }
          if (next.severitySource === 'DERIVED') next.severity = severityOfScore(next.score);
          return next;
        },
        check: async (next, changes) => {
          if (changes.ownerId)
            await assertReference(w.trx, actor.tenantId, 'resource', 'ownerId', next.ownerId);
        },
      });
      if (changed && isEscalation(before.severity, after.severity)) {
        await this.deps.events.emit(
          w.trx,
          actor.tenantId,
          'risk.severity_escalated',
          {
            riskId: id,
            projectId: after.projectId,
            previousSeverity: before.severity,
            severity: after.severity,
            risk: after,
          },
          w.now,
        );
      }
      return after;
    });
  }
}
