/**
 * Type-level tests: compiled by `tsc -p sdk-ts/tsconfig.json` (scripts/test-sdk-ts.sh), never run. Each
 * `@ts-expect-error` must meet an error, or the compile fails; the other lines must compile.
 */
import {
  type APIResult,
  type ListItem,
  type Meridian,
  type OperationParams,
  type Project,
  type ProjectDetail,
  type Risk,
  type WebhookEvent,
  webhooks,
} from '../src/index.js';

declare const client: Meridian;
declare const id: string;
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(_: T) => undefined;

export async function valid() {
  // Results are typed from the spec.
  const got: APIResult<ProjectDetail> = await client.getProject({ id });
  assertType<Equal<typeof got.data.status, Project['status']>>(true);
  const { data: page } = await client.listProjects({ status: 'AT_RISK', limit: 10 });
  const firstName: string | undefined = page.data[0]?.name;
  const hasMore: boolean = page.pagination.hasMore;
  const created = await client.createRisk({ body: { title: 't', projectId: id, likelihood: 3, impact: 4 } });
  const severity: 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL' = created.data.severity;
  await client.updateProject({ id, body: { status: 'ON_TRACK' }, headers: { 'If-Match': '"2"' } });
  await client.createProject(
    {
      body: { name: 'n', startDate: '2025-01-01', endDate: '2025-02-01' },
      headers: { 'Idempotency-Key': 'k' },
    },
    { timeoutMs: 5_000, maxRetries: 0 },
  );
  // 204 operations resolve to undefined data.
  const deleted = await client.deleteMilestone({ id });
  assertType<Equal<typeof deleted.data, undefined>>(true);
  // Operations without required params take no argument.
  await client.getMe();
  // paginate() yields the list's item type.
  for await (const risk of client.paginate('listRisks', { severity: 'HIGH' })) {
    assertType<Equal<typeof risk, Risk>>(true);
  }
  assertType<Equal<ListItem<'listProjects'>, Project>>(true);
  const execution = await client.waitForExecution(id, { intervalMs: 500 });
  const status: 'PENDING' | 'RUNNING' | 'COMPLETED' | 'FAILED' = execution.status;
  // Webhook events are a union discriminated by `event`.
  const event: WebhookEvent = webhooks.unwrap('{}', {}, 'whsec_AAAA');
  if (event.event === 'project.status_changed') {
    const previous: Project['status'] = event.data.previousStatus;
    void previous;
  }
  return { firstName, hasMore, severity, status };
}

export async function invalid() {
  // @ts-expect-error -- wrong field name in the body (`title` misspelt)
  await client.createRisk({ body: { titel: 't', projectId: id, likelihood: 3, impact: 4 } });
  // @ts-expect-error -- wrong enum value in a query parameter
  await client.listProjects({ status: 'LATE' });
  // @ts-expect-error -- wrong enum value in a body
  await client.updateProject({ id, body: { status: 'DONE' } });
  // @ts-expect-error -- missing required body field (`endDate`)
  await client.createProject({ body: { name: 'n', startDate: '2025-01-01' } });
  // @ts-expect-error -- missing body altogether
  await client.createProject({});
  // @ts-expect-error -- wrong path parameter name (`projectId` instead of `id`)
  await client.getProject({ projectId: id });
  // @ts-expect-error -- missing path parameter
  await client.getProject();
  // @ts-expect-error -- unknown query parameter
  await client.listRisks({ owner: 'me' });
  // @ts-expect-error -- wrong type of a field (likelihood is a number)
  await client.createRisk({ body: { title: 't', projectId: id, likelihood: 'high', impact: 4 } });
  // @ts-expect-error -- a header the operation does not declare
  await client.getProject({ id, headers: { 'If-Match': '"1"' } });
  // @ts-expect-error -- unknown operation
  await client.listPortfolios();
  // @ts-expect-error -- paginate() accepts list operations only
  client.paginate('getProject', { id });
  // @ts-expect-error -- paginate() needs the path parameter of a nested list
  client.paginate('listProjectMilestones');
  client.paginate('listProjectMilestones', { id, status: 'MISSED' });
  // @ts-expect-error -- result fields are typed (Project has no `owner`)
  (await client.getProject({ id })).data.owner;
  // `sort` is the list's enum, `q` and `tag` exist on listProjects only.
  client.paginate('listProjects', { q: 'bridge', tag: 'resilience', sort: '-forecastEndDate' });
  // @ts-expect-error -- not a sort field of projects
  client.paginate('listProjects', { sort: '-progress' });
  // @ts-expect-error -- risks have no free-text search
  client.paginate('listRisks', { q: 'flood', sort: '-score' });
  const params: OperationParams<'listRisks'> = {};
  // @ts-expect-error -- enum-typed filter
  params.severity = 'SEVERE';
}
