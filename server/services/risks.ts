/**
 * Risks: score = likelihood × impact and severity derived from it unless the client sets it (DESIGN.md).
 */
import { v7 as uuidv7 } from 'uuid';
import type { Page, PageRequest } from '../repositories/common.js';
import { inTransaction } from '../repositories/common.js';
import {
  findRisk,
  insertRisk,
  listRisks,
  type RiskFields,
  type RiskFilter,
  type RiskRecord,
  type RiskSeverity,
  type RiskStatus,
  updateRisk,
} from '../repositories/risks.js';
import { diff, recordAudit } from './audit.js';
import { checkIfMatch } from './concurrency.js';
import type { Actor, ServiceDeps } from './context.js';
import { AppError, notFound } from './errors.js';
import { isEscalation } from './event-rules.js';
import { emitEvent } from './events.js';
import { assertReference } from './references.js';

/** Body of POST /risks (spec `RiskCreate`); likelihood and impact are integers 1–5 (seed). */
export interface RiskCreateInput {
  title: string;
  projectId: string;
  likelihood: number;
  impact: number;
  description?: string | null;
  status?: RiskStatus;
  severity?: RiskSeverity;
  ownerId?: string | null;
  mitigation?: string | null;
  dueDate?: string | null;
}

/** Body of PATCH /risks/{id} (spec `RiskUpdate`); `severity: null` returns the risk to the derived severity. */
export interface RiskUpdateInput {
  title?: string;
  description?: string | null;
  likelihood?: number;
  impact?: number;
  severity?: RiskSeverity | null;
  status?: RiskStatus;
  ownerId?: string | null;
  mitigation?: string | null;
  dueDate?: string | null;
}

/**
 * Severity of a likelihood × impact score (DESIGN.md): LOW 1–4, MEDIUM 5–9, HIGH 10–16, CRITICAL 20–25.
 * (17–19 cannot occur on a 5 × 5 matrix.)
 */
export function severityOfScore(score: number): RiskSeverity {
  if (score >= 20) return 'CRITICAL';
  if (score >= 10) return 'HIGH';
  if (score >= 5) return 'MEDIUM';
  return 'LOW';
}

function fieldsOf(r: RiskRecord): RiskFields {
  const { id: _id, version: _v, createdAt: _c, updatedAt: _u, ...fields } = r;
  return fields;
}

/** Risk use cases. */
export class RiskService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * Creates a risk (status OPEN unless given).
   * @throws AppError 422 when `projectId` names no project of the caller's tenant or `ownerId` no resource.
   */
  async create(actor: Actor, input: RiskCreateInput): Promise<RiskRecord> {
    const now = this.deps.clock.now().toISOString();
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
    return inTransaction(this.deps.db.knex, async (trx) => {
      await assertReference(trx, actor.tenantId, 'project', 'projectId', input.projectId);
      await assertReference(trx, actor.tenantId, 'resource', 'ownerId', fields.ownerId);
      const risk = await insertRisk(trx, actor.tenantId, uuidv7(), fields, now);
      await recordAudit(trx, actor, now, 'risk.created', 'risk', risk.id, diff({}, fieldsOf(risk)));
      await emitEvent(
        trx,
        actor.tenantId,
        'risk.created',
        { riskId: risk.id, projectId: risk.projectId, risk },
        now,
      );
      return risk;
    });
  }

  /** One risk of the caller's tenant. @throws AppError 404. */
  async get(actor: Actor, id: string): Promise<RiskRecord> {
    const risk = await findRisk(this.deps.db.knex, actor.tenantId, id);
    if (!risk) throw notFound('risk', id);
    return risk;
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
    const now = this.deps.clock.now().toISOString();
    return inTransaction(this.deps.db.knex, async (trx) => {
      const current = await findRisk(trx, actor.tenantId, id);
      if (!current) throw notFound('risk', id);
      checkIfMatch(ifMatch, current.version);
      const before = fieldsOf(current);
      const after: RiskFields = { ...before };
      for (const key of [
        'title',
        'description',
        'likelihood',
        'impact',
        'status',
        'ownerId',
        'mitigation',
        'dueDate',
      ] as const) {
        if (input[key] !== undefined) (after as unknown as Record<string, unknown>)[key] = input[key];
      }
      after.score = after.likelihood * after.impact;
      if (input.severity === null) after.severitySource = 'DERIVED';
      else if (input.severity !== undefined) {
        after.severitySource = 'MANUAL';
        after.severity = input.severity;
      }
      if (after.severitySource === 'DERIVED') after.severity = severityOfScore(after.score);
      const changes = diff(
        before as unknown as Record<string, unknown>,
        after as unknown as Record<string, unknown>,
      );
      if (Object.keys(changes).length === 0) return current;
      if (changes.ownerId) await assertReference(trx, actor.tenantId, 'resource', 'ownerId', after.ownerId);
      const changed: Partial<RiskFields> = {};
      for (const key of Object.keys(changes) as (keyof RiskFields)[]) {
        (changed as Record<string, unknown>)[key] = after[key];
      }
      const ok = await updateRisk(trx, actor.tenantId, id, current.version, changed, now);
      if (!ok) throw new AppError('conflict', 'The risk was changed by another request; fetch it and retry.');
      await recordAudit(trx, actor, now, 'risk.updated', 'risk', id, changes);
      const updated = await findRisk(trx, actor.tenantId, id);
      if (!updated) throw notFound('risk', id);
      if (isEscalation(current.severity, updated.severity)) {
        await emitEvent(
          trx,
          actor.tenantId,
          'risk.severity_escalated',
          {
            riskId: id,
            projectId: updated.projectId,
            previousSeverity: current.severity,
            severity: updated.severity,
            risk: updated,
          },
          now,
        );
      }
      return updated;
    });
  }
}
