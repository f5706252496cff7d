/**
 * Contract tests of askAgent (`POST /agents/ask`): answers with citations that resolve to the caller's records,
 * nothing relevant → no citation, another tenant's records never retrieved (the same project name in two tenants),
 * `projectId` restricting the answer (404 for another tenant's), the full-text index kept in step with writes, and
 * validation. The answer quality over a golden set is `npm run eval` (test/integration/ask-eval.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { markersIn } from '../../eval/score.js';
import { expectProblem } from '../support/assertions.js';
import { type Api, client } from '../support/client.js';
import { makeProject, makeRisk, uniq } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

/** Asserts the citation rules: indexes 1..n in order, every marker resolves, every citation is referred to. */
function expectWellCited(body: any): void {
  expect(body.engine).to.equal('embedded');
  body.citations.forEach((c: any, i: number) => {
    expect(c.index).to.equal(i + 1);
  });
  const used = new Set(markersIn(body.answer));
  for (const n of used) expect(n, `[${n}] in ${body.answer}`).to.be.within(1, body.citations.length);
  for (const c of body.citations) expect(used.has(c.index), `citation ${c.index} unused`).to.equal(true);
}

describe('Ask (askAgent)', () => {
  const ctx = contractSuite();

  const ask = (who: Api, body: Record<string, unknown>) => who.post('askAgent', '/agents/ask', { body });

  it('answers a project question with the read scope, citing the project with a URL that resolves', async () => {
    const name = uniq('Harbor Tunnel Rehabilitation');
    const project = await makeProject(ctx.api, {
      name,
      status: 'AT_RISK',
      budget: 48_500_000,
      forecastCost: 51_200_000,
      endDate: '2026-12-31',
      forecastEndDate: '2027-03-31',
    });
    const res = await ask(ctx.reader, { question: `What is the budget of ${name}?` });
    expect(res.status).to.equal(200);
    expectWellCited(res.body);
    expect(res.body.answer).to.include('$48,500,000').and.include('$51,200,000').and.include('$2,700,000');
    expect(res.body.citations).to.have.length(1);
    const [citation] = res.body.citations;
    expect(citation).to.include({
      type: 'project',
      id: project.id,
      title: name,
      url: `/v1/projects/${project.id}`,
    });
    expect(citation.field).to.equal('forecastCost');
    const record = await ctx.reader.get('getProject', citation.url.slice('/v1'.length));
    expect(record.status).to.equal(200);
    expect(record.body.id).to.equal(project.id);
  });

  it('names two projects a name matches equally well and asks which; resolves a superlative to one project', async () => {
    const tag = uniq('Quarry').split('-')[1] as string;
    const north = await makeProject(ctx.api, {
      name: `Quarrybrook ${tag} Pumping Station North`,
      budget: 9e11,
    });
    const south = await makeProject(ctx.api, { name: `Quarrybrook ${tag} Pumping Station South`, budget: 1 });
    const res = await ask(ctx.reader, { question: `How is the Quarybrook ${tag} pumping station doing?` });
    expect(res.status).to.equal(200);
    expectWellCited(res.body);
    expect(res.body.answer).to.match(
      /^The question matches 2 projects about equally well: .*Which one is meant\?/,
    );
    expect(res.body.citations.map((c: any) => c.id)).to.include.members([north.id, south.id]);

    const largest = await ask(ctx.reader, { question: 'What is the status of the largest project?' });
    expect(largest.status).to.equal(200);
    expectWellCited(largest.body);
    expect(largest.body.answer).to.match(
      /^“the largest project” is read as the first project by budget: Quarrybrook/,
    );
    expect(largest.body.citations[0].id).to.equal(north.id);
  });

  it('answers the same question the same way twice', async () => {
    const name = uniq('Seawall');
    await makeProject(ctx.api, { name, status: 'OFF_TRACK', budget: 10, forecastCost: 12 });
    const first = await ask(ctx.reader, { question: 'Which projects are over budget?' });
    const second = await ask(ctx.reader, { question: 'Which projects are over budget?' });
    expect(first.status).to.equal(200);
    expect(second.body).to.deep.equal(first.body);
  });

  it('lists open high risks with severity and score, each risk cited', async () => {
    const project = await makeProject(ctx.api, { name: uniq('Signals') });
    const critical = await makeRisk(ctx.api, project.id, {
      title: uniq('Supplier insolvency'),
      likelihood: 5,
      impact: 4,
    });
    const high = await makeRisk(ctx.api, project.id, {
      title: uniq('Asbestos in huts'),
      likelihood: 3,
      impact: 4,
    });
    await makeRisk(ctx.api, project.id, { title: uniq('Minor'), likelihood: 1, impact: 2 });
    await makeRisk(ctx.api, project.id, {
      title: uniq('Closed one'),
      likelihood: 5,
      impact: 5,
      status: 'CLOSED',
    });
    const res = await ask(ctx.reader, { question: 'What are the open high risks?' });
    expect(res.status).to.equal(200);
    expectWellCited(res.body);
    expect(res.body.citations.map((c: any) => c.id)).to.deep.equal([critical.id, high.id]);
    expect(res.body.citations.map((c: any) => c.url)).to.deep.equal([
      `/v1/risks/${critical.id}`,
      `/v1/risks/${high.id}`,
    ]);
    expect(res.body.answer)
      .to.match(/\b20\b/)
      .and.match(/\b12\b/);
  });

  it('finds records by full text and says when nothing is relevant, with no citation', async () => {
    const project = await makeProject(ctx.api, { name: uniq('Ferry Terminal') });
    const risk = await makeRisk(ctx.api, project.id, {
      title: uniq('Storm surge'),
      mitigation: 'Schedule marine works outside the hurricane season.',
    });
    const found = await ask(ctx.reader, { question: 'Anything about hurricanes?' });
    expect(found.status).to.equal(200);
    expectWellCited(found.body);
    expect(found.body.citations.map((c: any) => c.id)).to.deep.equal([risk.id]);
    expect(found.body.citations[0].excerpt).to.include('hurricane season');

    const nothing = await ask(ctx.reader, { question: 'What will the weather be like in Paris tomorrow?' });
    expect(nothing.status).to.equal(200);
    expect(nothing.body.citations).to.deep.equal([]);
    expect(nothing.body.answer).to.match(/^Nothing in your portfolio/);
  });

  it('never retrieves another tenant’s records: the same project name in two tenants', async () => {
    const name = uniq('Gowanus Facilities Upgrade');
    const mine = await makeProject(ctx.api, { name, budget: 200_000_000, forecastCost: 230_000_000 });
    const myRisk = await makeRisk(ctx.api, mine.id, {
      title: 'Contaminated sediment disposal costs',
      likelihood: 4,
      impact: 5,
    });
    const other = await ctx.server.createTenant();
    const otherApi = client(ctx.server.baseUrl, other.keys.write);
    const theirs = await makeProject(otherApi, { name, budget: 1_000_000, forecastCost: 1_900_000 });
    const theirRisk = await makeRisk(otherApi, theirs.id, {
      title: 'Contaminated sediment disposal costs',
      likelihood: 1,
      impact: 3,
    });

    for (const question of [
      `What is the budget of ${name}?`,
      `What are the risks of ${name}?`,
      'Anything about sediment?',
    ]) {
      const a = await ask(ctx.reader, { question });
      const b = await ask(client(ctx.server.baseUrl, other.keys.read), { question });
      const aIds = a.body.citations.map((c: any) => c.id);
      const bIds = b.body.citations.map((c: any) => c.id);
      expect(aIds, question).to.not.include(theirs.id).and.not.include(theirRisk.id);
      expect(bIds, question).to.not.include(mine.id).and.not.include(myRisk.id);
      expect(aIds.length, question).to.be.greaterThan(0);
      expect(bIds.length, question).to.be.greaterThan(0);
    }
    const budget = await ask(ctx.reader, { question: `What is the budget of ${name}?` });
    expect(budget.body.answer).to.include('$200,000,000').and.not.include('$1,000,000');
  });

  it('restricts to projectId, and answers 404 for another tenant’s project or an unknown one', async () => {
    const a = await makeProject(ctx.api, { name: uniq('Data Center Migration') });
    const b = await makeProject(ctx.api, { name: uniq('Library Expansion') });
    const riskA = await makeRisk(ctx.api, a.id, { title: uniq('Cutover fails'), likelihood: 4, impact: 4 });
    await makeRisk(ctx.api, b.id, { title: uniq('Roof leak'), likelihood: 4, impact: 4 });
    const res = await ask(ctx.reader, { question: 'What are the risks?', projectId: a.id });
    expect(res.status).to.equal(200);
    expectWellCited(res.body);
    expect(res.body.citations.map((c: any) => c.id)).to.include(riskA.id);
    for (const c of res.body.citations) expect([a.id, riskA.id]).to.include(c.id);

    const other = await ctx.server.createTenant();
    const foreign = await makeProject(client(ctx.server.baseUrl, other.keys.write));
    expectProblem(
      await ask(ctx.reader, { question: 'What is the status?', projectId: foreign.id }),
      404,
      'not_found',
    );
    expectProblem(
      await ask(ctx.reader, { question: 'What is the status?', projectId: randomUUID() }),
      404,
      'not_found',
    );
  });

  it('keeps the full-text index in step with creates, updates and deletes', async () => {
    const project = await makeProject(ctx.api, { name: uniq('Pumping Station') });
    const risk = await makeRisk(ctx.api, project.id, {
      title: 'Quicksand under the wet well',
      likelihood: 2,
      impact: 3,
    });
    const before = await ask(ctx.reader, { question: 'Anything about quicksand?' });
    expect(before.body.citations.map((c: any) => c.id)).to.deep.equal([risk.id]);

    const patched = await ctx.api.patch('updateRisk', `/risks/${risk.id}`, {
      body: { title: 'Methane in the wet well' },
    });
    expect(patched.status).to.equal(200);
    expect((await ask(ctx.reader, { question: 'Anything about quicksand?' })).body.citations).to.deep.equal(
      [],
    );
    const methane = await ask(ctx.reader, { question: 'Anything about methane?' });
    expect(methane.body.citations.map((c: any) => c.id)).to.deep.equal([risk.id]);

    const milestone = await ctx.api.post('createMilestone', `/projects/${project.id}/milestones`, {
      body: { name: 'Zeppelin mooring mast inspection', dueDate: '2026-09-01' },
    });
    expect(milestone.status).to.equal(201);
    const found = await ask(ctx.reader, { question: 'Anything about the zeppelin mooring mast?' });
    expect(found.body.citations.map((c: any) => c.id)).to.deep.equal([milestone.body.id]);
    expect(found.body.citations[0].url).to.equal(`/v1/milestones/${milestone.body.id}`);
    expect((await ctx.api.delete('deleteMilestone', `/milestones/${milestone.body.id}`)).status).to.equal(
      204,
    );
    expect(
      (await ask(ctx.reader, { question: 'Anything about the zeppelin mooring mast?' })).body.citations,
    ).to.deep.equal([]);
  });

  it('answers 400 for an empty or overlong question and unknown properties, 401 without a key', async () => {
    expectProblem(await ask(ctx.reader, { question: '' }), 400, 'validation_failed');
    expectProblem(await ask(ctx.reader, { question: 'x'.repeat(2001) }), 400, 'validation_failed');
    expectProblem(await ask(ctx.reader, { question: 'Status?', limit: 3 }), 400, 'validation_failed');
    expectProblem(
      await ask(ctx.reader, { question: 'Status?', projectId: 'not-a-uuid' }),
      400,
      'validation_failed',
    );
    expectProblem(
      await ask(client(ctx.server.baseUrl, null), { question: 'Status?' }),
      401,
      'unauthenticated',
    );
  });
});
