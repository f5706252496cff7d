import { expect } from 'chai';
import { isEscalation, overrunCrossings } from '../../server/services/event-rules.js';

describe('event triggers', () => {
  const figures = (budget: number | null, actualCost: number, forecastCost: number | null) => ({
    budget,
    actualCost,
    forecastCost,
  });
  it('reports an overrun once per crossing above the budget, per kind', () => {
    expect(overrunCrossings(null, figures(100, 0, 120))).to.deep.equal(['FORECAST']);
    expect(overrunCrossings(null, figures(100, 101, 120))).to.deep.equal(['ACTUAL', 'FORECAST']);
    expect(overrunCrossings(figures(100, 0, 90), figures(100, 0, 100))).to.deep.equal([]); // at budget: not over
    expect(overrunCrossings(figures(100, 0, 100), figures(100, 0, 100.01))).to.deep.equal(['FORECAST']);
    expect(overrunCrossings(figures(100, 0, 120), figures(100, 0, 130))).to.deep.equal([]); // still over: no repeat
    expect(overrunCrossings(figures(100, 0, 130), figures(100, 0, 95))).to.deep.equal([]); // back under
    expect(overrunCrossings(figures(100, 0, 95), figures(100, 0, 140))).to.deep.equal(['FORECAST']); // crosses again
    expect(overrunCrossings(figures(150, 120, 0), figures(100, 120, 0))).to.deep.equal(['ACTUAL']); // budget cut
    expect(overrunCrossings(figures(null, 0, 500), figures(null, 900, 900))).to.deep.equal([]); // no budget
    expect(overrunCrossings(figures(null, 0, 500), figures(400, 0, 500))).to.deep.equal(['FORECAST']);
  });
  it('counts only rises of severity as escalations', () => {
    expect(isEscalation('LOW', 'MEDIUM')).to.equal(true);
    expect(isEscalation('MEDIUM', 'CRITICAL')).to.equal(true);
    expect(isEscalation('HIGH', 'HIGH')).to.equal(false);
    expect(isEscalation('CRITICAL', 'LOW')).to.equal(false);
  });
});
