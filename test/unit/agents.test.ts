/**
 * The six analyses as pure functions of a snapshot (server/services/agents): the field's measures, the metrics each
 * agent promises in the catalogue (exactly those names, per depth), citations that resolve, findings in order,
 * determinism, and unknown values left out (never 0). The portfolios: test/support/agent-portfolio.ts.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import YAML from 'yaml';
import { AGENTS, type AgentId } from '../../server/services/agents/catalogue.js';
import { analyse } from '../../server/services/agents/index.js';
import {
  budgetGrowth,
  costFigures,
  healthOf,
  type ReportPoint,
  repeatedSlips,
  slipDays,
  slipVelocity,
} from '../../server/services/agents/measures.js';

import { checkOutput, DEPTHS, id, portfolio } from '../support/agent-portfolio.js';

describe('agents: measures', () => {
  it('slip, variance at completion, overrun, CPI proxy; unknown stays null', () => {
    expect(slipDays({ endDate: '2026-01-01', forecastEndDate: '2026-03-02' })).to.equal(60);
    expect(slipDays({ endDate: '2026-01-01', forecastEndDate: null })).to.equal(null);
    const c = costFigures({ budget: 1_000, forecastCost: 1_250, actualCost: null });
    expect(c).to.deep.equal({
      varianceAtCompletion: -250,
      overrun: 250,
      overrunPercent: 25,
      cpiProxy: 0.8,
      spentPercent: null,
    });
    expect(costFigures({ budget: null, forecastCost: 5, actualCost: 1 }).varianceAtCompletion).to.equal(null);
    expect(costFigures({ budget: 0, forecastCost: 5, actualCost: null }).overrunPercent).to.equal(null);
  });

  it('health score: deductions per signal, RAG thresholds, unknown when schedule and cost are both unknown', () => {
    const none = { openCritical: 0, openHigh: 0, overdueMilestones: 0, overAllocatedPeople: 0 };
    expect(healthOf({ slipDays: 0, overrunPercent: 0, ...none })).to.include({ score: 100, rag: 'GREEN' });
    // 90 days → 20; 5 % → 20: 60 AMBER.
    expect(healthOf({ slipDays: 90, overrunPercent: 5, ...none })).to.include({ score: 60, rag: 'AMBER' });
    const red = healthOf({
      slipDays: 400,
      overrunPercent: 50,
      ...none,
      openCritical: 1,
      overdueMilestones: 9,
      overAllocatedPeople: 1,
    });
    expect(red.score).to.equal(0);
    expect(red.rag).to.equal('RED');
    expect(red.penalties.map((p) => [p.signal, p.points])).to.deep.equal([
      ['schedule', 40],
      ['cost', 40],
      ['risk', 15],
      ['milestones', 15],
      ['capacity', 10],
    ]);
    expect(healthOf({ slipDays: null, overrunPercent: null, ...none, openHigh: 1 })).to.include({
      score: null,
      rag: null,
    });
    expect(healthOf({ slipDays: null, overrunPercent: 0, ...none })).to.include({ score: 100 });
  });

  it('slip velocity, repeated slips and budget growth over the reports', () => {
    const reports = portfolio('deep').reports.get(id(1, 2)) as ReportPoint[];
    const v = slipVelocity(reports);
    // (365 − 92) days over the 123 days from 2025-10-01 to 2026-02-01, × 30.
    expect(v?.velocity).to.be.closeTo(((365 - 92) / 123) * 30, 1e-9);
    expect(repeatedSlips(reports).map((r) => r.asOf)).to.deep.equal(['2025-12-01', '2026-02-01']);
    expect(budgetGrowth(reports)).to.include({ amount: 150_000 });
    expect(budgetGrowth(reports)?.percent).to.be.closeTo(13.636, 1e-3);
    expect(slipVelocity(reports.slice(0, 1))).to.equal(null);
  });
});

describe('agents: every agent at every depth', () => {
  for (const agent of AGENTS) {
    for (const depth of DEPTHS) {
      it(`${agent.id} ${depth}: the catalogue's metrics, resolvable citations, ordered findings, deterministic`, () => {
        const output = analyse(agent.id, portfolio(depth));
        checkOutput(output);
        const expected = agent.metrics
          .filter((m) => !m.depths || m.depths.includes(depth))
          .map((m) => m.name);
        expect(Object.keys(output.metrics).sort()).to.deep.equal([...expected].sort());
        expect(output.asOf).to.equal('2026-03-02');
        if (depth === 'quick') {
          expect(output.findings).to.deep.equal([]);
          expect(output.citations).to.deep.equal([]);
        } else expect(output.findings.length).to.be.greaterThan(0);
        // Same snapshot, same output.
        expect(analyse(agent.id, portfolio(depth))).to.deep.equal(output);
        expect(JSON.stringify(output)).not.to.match(/NaN|Infinity|undefined/);
      });
      it(`${agent.id} ${depth} over one project`, () => {
        const output = analyse(agent.id as AgentId, portfolio(depth, id(1, 2)));
        checkOutput(output);
      });
    }
  }
});

describe('agents: the spec documents every metric', () => {
  it('names each metric of the catalogue in AgentOutput.metrics, under its agent', () => {
    const spec = YAML.parse(
      fs.readFileSync(new URL('../../generated/openapi.yaml', import.meta.url), 'utf8'),
    );
    const text = spec.components.schemas.AgentOutput.properties.metrics.description as string;
    for (const agent of AGENTS) {
      const line = text.split('\n- ').find((l) => l.startsWith(`\`${agent.id}\``)) ?? '';
      for (const m of agent.metrics) expect(line, `${agent.id} ${m.name}`).to.contain(`\`${m.name}\``);
    }
  });
});
