/**
 * Unit tests of the business rules with exact expected values (docs/design.md).
 */
import { expect } from 'chai';
import { daysBetween } from '../../server/dates.js';
import type { ProjectRecord, ProjectStatus } from '../../server/repositories/projects.js';
import { checkIfMatch, etagOf } from '../../server/services/concurrency.js';
import type { AppError } from '../../server/services/errors.js';
import { budgetSummaryOf, canTransition } from '../../server/services/projects.js';
import { severityOfScore } from '../../server/services/risks.js';

const STATUSES: ProjectStatus[] = [
  'PLANNED',
  'ON_TRACK',
  'AT_RISK',
  'OFF_TRACK',
  'ON_HOLD',
  'COMPLETED',
  'CANCELLED',
];

describe('risk severity of likelihood × impact (docs/design.md: LOW 1–4, MEDIUM 5–9, HIGH 10–16, CRITICAL 20–25)', () => {
  it('maps all 25 cells of the 5 × 5 matrix', () => {
    const grid: string[] = [];
    for (let likelihood = 1; likelihood <= 5; likelihood++) {
      const row: string[] = [];
      for (let impact = 1; impact <= 5; impact++) row.push(severityOfScore(likelihood * impact)[0] as string);
      grid.push(row.join(''));
    }
    // L = LOW, M = MEDIUM, H = HIGH, C = CRITICAL; rows are likelihood 1..5, columns impact 1..5.
    expect(grid).to.deep.equal(['LLLLM', 'LLMMH', 'LMMHH', 'LMHHC', 'MHHCC']);
  });
  it('puts the band edges where docs/design.md does', () => {
    expect([4, 5, 9, 10, 16, 20, 25].map(severityOfScore)).to.deep.equal([
      'LOW',
      'MEDIUM',
      'MEDIUM',
      'HIGH',
      'HIGH',
      'CRITICAL',
      'CRITICAL',
    ]);
  });
});

describe('project status transitions (docs/design.md)', () => {
  it('allows every move between non-terminal statuses', () => {
    const open = STATUSES.filter((s) => s !== 'COMPLETED' && s !== 'CANCELLED');
    for (const from of open)
      for (const to of STATUSES) expect(canTransition(from, to), `${from}→${to}`).to.equal(true);
  });
  it('keeps COMPLETED and CANCELLED terminal except for the explicit reopen', () => {
    const allowed = (from: ProjectStatus) => STATUSES.filter((to) => to !== from && canTransition(from, to));
    expect(allowed('COMPLETED')).to.deep.equal(['ON_TRACK']);
    expect(allowed('CANCELLED')).to.deep.equal(['PLANNED']);
  });
});

describe('budget summary', () => {
  const base: ProjectRecord = {
    id: 'p',
    code: null,
    name: 'n',
    description: null,
    status: 'ON_TRACK',
    startDate: '2024-01-01',
    endDate: '2024-12-31',
    forecastEndDate: '2025-02-14',
    budget: 1_000_000,
    forecastCost: 1_125_000.5,
    actualCost: 333_333,
    currency: 'USD',
    projectManagerId: null,
    progress: 40,
    tags: [],
    category: null,
    borough: null,
    managingAgency: null,
    clientAgency: null,
    version: 1,
    createdAt: '',
    updatedAt: '',
  };
  it('computes remaining, percent spent, cost variance and schedule variance', () => {
    expect(budgetSummaryOf(base)).to.deep.equal({
      budget: 1_000_000,
      actualCost: 333_333,
      forecastCost: 1_125_000.5,
      remaining: 666_667,
      percentSpent: 33.33,
      costVariance: -125_000.5,
      scheduleVarianceDays: 45,
      currency: 'USD',
    });
  });
  it('answers null where a baseline or forecast is missing, never a made-up zero', () => {
    const s = budgetSummaryOf({ ...base, budget: null, forecastEndDate: null });
    expect([s.remaining, s.percentSpent, s.costVariance, s.scheduleVarianceDays]).to.deep.equal([
      null,
      null,
      null,
      null,
    ]);
    expect(budgetSummaryOf({ ...base, budget: 0 }).percentSpent).to.equal(null);
  });
  it('answers null for what depends on an unreported actual cost (unknown is not 0)', () => {
    const s = budgetSummaryOf({ ...base, actualCost: null });
    expect([s.actualCost, s.remaining, s.percentSpent]).to.deep.equal([null, null, null]);
    expect(s.costVariance).to.equal(-125_000.5);
  });
  it('counts days across a leap day', () => {
    expect(daysBetween('2024-02-28', '2024-03-01')).to.equal(2);
    expect(daysBetween('2024-03-01', '2024-02-28')).to.equal(-2);
  });
});

describe('If-Match (RFC 9110 §13.1.1, strong comparison)', () => {
  const fails = (header: string | undefined, version: number) => {
    try {
      checkIfMatch(header, version);
      return null;
    } catch (err) {
      return (err as AppError).code;
    }
  };
  it('passes when absent, "*", or listing the current tag', () => {
    expect(etagOf(3)).to.equal('"3"');
    expect(fails(undefined, 3)).to.equal(null);
    expect(fails('*', 3)).to.equal(null);
    expect(fails('"3"', 3)).to.equal(null);
    expect(fails('"1", "3"', 3)).to.equal(null);
  });
  it('fails with precondition_failed on a stale or weak tag', () => {
    expect(fails('"2"', 3)).to.equal('precondition_failed');
    expect(fails('W/"3"', 3)).to.equal('precondition_failed');
    expect(fails('3', 3)).to.equal('precondition_failed');
  });
});
