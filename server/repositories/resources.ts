/**
 * Resources (people). Only the reference check exists so far; the Resources API comes with the portfolio issue.
 */
import type { Executor } from './common.js';

/** Whether the tenant has a resource with this id (projectManagerId, ownerId and assigneeId must name one). */
export async function resourceExists(db: Executor, tenantId: string, id: string): Promise<boolean> {
  return (await db('resources').where({ tenant_id: tenantId, id }).first('id')) !== undefined;
}
