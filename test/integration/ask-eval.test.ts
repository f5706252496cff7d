/**
 * The Ask agent's quality over the golden set (eval/golden/; `npm run eval` prints the same figures): the
 * embedded engine must keep citation precision ≥ 0.95, citation recall ≥ 0.90 and fact accuracy 1.0 — pooled and
 * as the mean over questions — with no integrity error (every `[n]` resolves, every citation is referred to, every
 * figure comes from the cited records). Runs on the run's database (SQLite, or Postgres with
 * MERIDIAN_TEST_DB=postgres).
 */
import { expect } from 'chai';
import { type EvalWorld, startEvalWorld } from '../../eval/harness.js';
import { meetsThresholds, report, THRESHOLDS } from '../../eval/run.js';
import {
  answerRight,
  figuresOf,
  HARDER_SETS,
  loadGolden,
  type QuestionScore,
  runGolden,
} from '../../eval/score.js';
import { EmbeddedEngine } from '../../server/services/ask/embedded.js';
import { evidenceRecords } from '../../server/services/ask/evidence.js';
import { systemActor } from '../../server/services/context.js';
import { TEST_DB } from '../support/server.js';

describe('Ask eval (golden set)', function () {
  this.timeout(180_000);
  let world: EvalWorld;
  let scores: QuestionScore[];
  before(async () => {
    world = await startEvalWorld({
      databaseUrl: TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined,
    });
    scores = await runGolden(world);
  });
  after(async () => world?.close());

  it('has at least 60 questions over the NYC demo, the fixture and the twin tenant, each category named', () => {
    const golden = loadGolden();
    expect(golden.length).to.be.at.least(60);
    expect(new Set(golden.map((q) => q.tenant))).to.deep.equal(new Set(['nyc', 'fixture', 'twin']));
    for (const q of golden) expect(q.category, q.id).to.be.a('string').and.not.equal('');
  });

  it(`holds precision ≥ ${THRESHOLDS.precision}, recall ≥ ${THRESHOLDS.recall}, fact accuracy ${THRESHOLDS.factAccuracy}`, () => {
    const all = figuresOf(scores);
    const misses = scores
      .filter(
        (s) =>
          s.missingRecords.length || s.extraRecords.length || s.missingFacts.length || s.integrity.length,
      )
      .map((s) => `${s.id}: ${s.answer}\n  ${JSON.stringify({ ...s, answer: undefined })}`);
    expect(meetsThresholds(all), `${JSON.stringify(report(scores), null, 1)}\n${misses.join('\n')}`).to.equal(
      true,
    );
    expect(new Set(scores.map((s) => s.engine))).to.deep.equal(new Set(['embedded']));
  });

  it('cites only records of the evidence retrieval selected (what a second engine may cite), each of the tenant', async () => {
    for (const q of loadGolden().filter((g) => !g.project)) {
      const tenant = world.tenants[q.tenant];
      const evidence = await world.services.ask.evidence(systemActor(tenant.id), { question: q.question });
      const allowed = new Set(evidenceRecords(evidence.finding).map((r) => `${r.type}:${r.id}`));
      const { citations } = await new EmbeddedEngine().compose(evidence);
      for (const c of citations)
        expect(allowed.has(`${c.type}:${c.id}`), `${q.id}: ${c.type} ${c.title}`).to.equal(true);
      const table = {
        project: 'projects',
        risk: 'risks',
        issue: 'issues',
        milestone: 'milestones',
        resource: 'resources',
        allocation: 'allocations',
        status_report: 'status_reports',
      }[citations[0]?.type ?? 'project'];
      if (citations[0] && table) {
        const row = await world.db.knex(table).where({ id: citations[0].id }).first('tenant_id');
        expect(row?.tenant_id, q.id).to.equal(tenant.id);
      }
    }
  });

  it('answers the harder set right and at least 90 % of its held-out part, on every category', async () => {
    for (const [name, dir] of HARDER_SETS) {
      const set = await runGolden(world, loadGolden(dir));
      const wrong = set.filter((s) => !answerRight(s)).map((s) => `${s.id}: ${s.answer.slice(0, 300)}`);
      const right = set.length - wrong.length;
      if (name === 'hard') expect(wrong, wrong.join('\n')).to.deep.equal([]);
      else expect(right / set.length, wrong.join('\n')).to.be.at.least(0.9);
      expect(
        set.filter((s) => s.refuse && !s.refused).map((s) => s.id),
        name,
      ).to.deep.equal([]);
      expect(figuresOf(set).integrityErrors, name).to.equal(0);
    }
  });

  it('cites in the harder set only records of the evidence and of its notes (scope, ambiguity)', async () => {
    for (const q of HARDER_SETS.flatMap(([, dir]) => loadGolden(dir))) {
      const tenant = world.tenants[q.tenant];
      const evidence = await world.services.ask.evidence(systemActor(tenant.id), { question: q.question });
      const allowed = new Set(evidenceRecords(evidence.finding).map((r) => `${r.type}:${r.id}`));
      for (const n of evidence.notes ?? [])
        for (const p of n.projects ?? []) allowed.add(`project:${p.figures.project.id}`);
      const { citations } = await new EmbeddedEngine().compose(evidence);
      for (const c of citations)
        expect(allowed.has(`${c.type}:${c.id}`), `${q.id}: ${c.type} ${c.title}`).to.equal(true);
    }
  });
});
