/**
 * The Ask agent through the TypeScript SDK against the real server (test/support/server.ts): `client.agents.ask` with
 * a typed answer whose citations resolve through the SDK's own `getProject`/`getRisk`, the restriction to one
 * project, and NotFoundError for another tenant's project.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startTestServer, type TestServer, type TestTenant } from '../../test/support/server.js';
import { Meridian, NotFoundError } from '../src/index.js';
import { rejection } from './helpers.js';

describe('sdk-ts: agents.ask', () => {
  let server: TestServer;
  let tenant: TestTenant;
  let client: Meridian;
  let reader: Meridian;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());
  beforeEach(async () => {
    tenant = await server.createTenant();
    client = new Meridian({ apiKey: tenant.keys.write, baseUrl: server.baseUrl, maxRetries: 0 });
    reader = new Meridian({ apiKey: tenant.keys.read, baseUrl: server.baseUrl, maxRetries: 0 });
  });

  it('answers with citations that resolve to the tenant’s records', async () => {
    const name = `Ferry Terminal ${randomUUID().slice(0, 6)}`;
    const project = await client.projects.create({
      name,
      startDate: '2026-01-05',
      endDate: '2026-12-18',
      budget: 48_500_000,
      forecastCost: 51_200_000,
    });
    const risk = await client.risks.create({
      projectId: project.id,
      title: 'Storm surge damages the pier',
      likelihood: 4,
      impact: 5,
    });
    const { data: answer, requestId } = await reader.agents
      .ask({ question: `What are the risks and the budget of ${name}?` })
      .withResponse();
    expect(requestId).to.be.a('string');
    expect(answer.engine).to.equal('embedded');
    expect(answer.answer).to.include('$2,700,000');
    expect(answer.citations.map((c) => [c.type, c.id])).to.deep.equal([
      ['risk', risk.id],
      ['project', project.id],
    ]);
    for (const c of answer.citations) expect(answer.answer).to.include(`[${c.index}]`);
    expect((await reader.risks.retrieve(risk.id)).title).to.equal('Storm surge damages the pier');
    expect(answer.citations[1]?.url).to.equal(`/v1/projects/${project.id}`);
  });

  it('restricts to projectId and throws NotFoundError for a project of another tenant', async () => {
    const a = await client.projects.create({ name: 'A', startDate: '2026-01-05', endDate: '2026-12-18' });
    const b = await client.projects.create({ name: 'B', startDate: '2026-01-05', endDate: '2026-12-18' });
    await client.risks.create({ projectId: b.id, title: 'Only on B', likelihood: 3, impact: 3 });
    const scoped = await reader.agents.ask({ question: 'What are the risks?', projectId: a.id });
    expect(scoped.citations.map((c) => c.id)).to.deep.equal([a.id]);

    const other = await server.createTenant();
    const foreign = await new Meridian({ apiKey: other.keys.write, baseUrl: server.baseUrl }).projects.create(
      {
        name: 'Elsewhere',
        startDate: '2026-01-05',
        endDate: '2026-12-18',
      },
    );
    const err = await rejection(
      reader.agents.ask({ question: 'Status?', projectId: foreign.id }),
      NotFoundError,
    );
    expect(err).to.be.instanceOf(NotFoundError);
  });
});
