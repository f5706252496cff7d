/**
 * Reference checks shared by the services: a body field that names another record must name one of the caller's
 * tenant, else 422 (docs/design.md: "422 business rule … a projectId that names no project of the tenant").
 */

import { projects } from '../repositories/projects.js';
import { resources } from '../repositories/resources.js';
import type { Executor } from '../repositories/sql.js';
import { businessRule } from './errors.js';

const TABLES = { project: projects, resource: resources } as const;

/**
 * Throws unless `id` (when given) names a record of `kind` in the tenant.
 * @param field the body field, for the problem's `errors[].path` (e.g. `ownerId`).
 * @throws AppError 422 `validation_failed` naming the field.
 */
export async function assertReference(
  trx: Executor,
  tenantId: string,
  kind: keyof typeof TABLES,
  field: string,
  id: string | null | undefined,
): Promise<void> {
  if (!id || (await TABLES[kind].exists(trx, tenantId, id))) return;
  throw businessRule(`${field} ${id} names no ${kind} of this tenant.`, [
    { location: 'body', path: `/${field}`, message: `no such ${kind} in this tenant` },
  ]);
}
