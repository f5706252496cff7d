/**
 * Type-level tests: compiled by `tsc -p sdk-ts/tsconfig.json` (scripts/test-sdk-ts.sh), never run. Each
 * `@ts-expect-error` must meet an error, or the compile fails; the other lines must compile.
 */
import {
  type APIResult,
  type Meridian,
  type Page,
  type PageItem,
  type Project,
  type ProjectDetail,
  type Risk,
  type RisksListParams,
  type WebhookEvent,
  webhooks,
} from '../src/index.js';

declare const client: Meridian;
declare const id: string;
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(_: T) => undefined;

export async function valid() {
  // Calls return the data, typed from the spec; withResponse() adds the request id and the Response.
  const got: ProjectDetail = await client.projects.retrieve(id);
  assertType<Equal<typeof got.status, Project['status']>>(true);
  const raw: APIResult<ProjectDetail> = await client.projects.retrieve(id).withResponse();
  const response: Response = await client.projects.retrieve(id).asResponse();
  // Lists: a page (await) with data, pagination, hasNextPage() and getNextPage() …
  const page: Page<Project> = await client.projects.list({ status: ['AT_RISK'], limit: 10 });
  const firstName: string | undefined = page.data[0]?.name;
  const hasMore: boolean = page.pagination.hasMore && page.hasNextPage();
  const next: Page<Project> = await page.getNextPage();
  // … or every record of every page (for await).
  for await (const risk of client.risks.list({ severity: ['HIGH'] }))
    assertType<Equal<typeof risk, Risk>>(true);
  assertType<Equal<PageItem<'listProjects'>, Project>>(true);
  const created = await client.risks.create({ title: 't', projectId: id, likelihood: 3, impact: 4 });
  const severity: 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL' = created.severity;
  await client.projects.update(id, { status: 'ON_TRACK' }, { headers: { 'If-Match': '"2"' } });
  await client.projects.create(
    { name: 'n', startDate: '2025-01-01', endDate: '2025-02-01' },
    { headers: { 'Idempotency-Key': 'k' }, timeoutMs: 5_000, maxRetries: 0 },
  );
  // 204 operations resolve to undefined.
  const deleted = await client.projects.milestones.delete(id);
  assertType<Equal<typeof deleted, undefined>>(true);
  // Operations without params take none.
  await client.me.retrieve();
  await client.webhooks.rotateSecret(id);
  // Nested resources take their parent's id first.
  await client.projects.milestones.list(id, { status: ['MISSED'] });
  await client.webhooks.deliveries.list(id);
  const execution = await client.agents.runAndPoll({ agentId: 'budget-health' }, { pollIntervalMs: 500 });
  const status: 'PENDING' | 'RUNNING' | 'COMPLETED' | 'FAILED' = execution.status;
  // Webhook events are a union discriminated by `event`.
  const event: WebhookEvent = await webhooks.unwrap('{}', {}, 'whsec_AAAA');
  if (event.event === 'project.status_changed') {
    const previous: Project['status'] = event.data.previousStatus;
    void previous;
  }
  // Array-valued query parameters (when the spec declares one) are typed arrays; here a scalar filter.
  const params: RisksListParams = { projectId: id };
  return { firstName, hasMore, severity, status, raw, response, next, params };
}

export async function invalid() {
  // @ts-expect-error -- wrong field name in the body (`title` misspelt)
  await client.risks.create({ titel: 't', projectId: id, likelihood: 3, impact: 4 });
  // @ts-expect-error -- wrong enum value in a query parameter
  await client.projects.list({ status: ['LATE'] });
  // @ts-expect-error -- wrong enum value in a body
  await client.projects.update(id, { status: 'DONE' });
  // @ts-expect-error -- missing required body field (`endDate`)
  await client.projects.create({ name: 'n', startDate: '2025-01-01' });
  // @ts-expect-error -- missing body altogether
  await client.projects.create();
  // @ts-expect-error -- missing path parameter
  await client.projects.retrieve();
  // @ts-expect-error -- unknown query parameter
  await client.risks.list({ owner: 'me' });
  // @ts-expect-error -- wrong type of a field (likelihood is a number)
  await client.risks.create({ title: 't', projectId: id, likelihood: 'high', impact: 4 });
  // @ts-expect-error -- a wrong type for a declared header parameter
  await client.projects.update(id, {}, { headers: { 'If-Match': 2 } });
  // @ts-expect-error -- unknown resource
  await client.portfolios.list();
  // @ts-expect-error -- the old flat methods are gone
  await client.getProject({ id });
  // @ts-expect-error -- a nested list needs its parent's id
  client.projects.milestones.list({ status: 'MISSED' });
  // @ts-expect-error -- result fields are typed (Project has no `owner`)
  (await client.projects.retrieve(id)).owner;
  // `sort` is the list's enum, `q` and `tag` exist on projects.list only.
  client.projects.list({ q: 'bridge', tag: 'resilience', sort: '-forecastEndDate' });
  // @ts-expect-error -- not a sort field of projects
  client.projects.list({ sort: '-progress' });
  // @ts-expect-error -- risks have no free-text search
  client.risks.list({ q: 'flood', sort: '-score' });
  const params: RisksListParams = {};
  // @ts-expect-error -- enum-typed filter
  params.severity = 'SEVERE';
}
