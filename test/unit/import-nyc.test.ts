import { expect } from 'chai';
import { parseUsDate } from '../../server/import/nyc/csv.js';
import { statusForReport } from '../../server/import/nyc/mapping.js';

describe('NYC importer mapping', () => {
  it('parses the dataset dates and refuses impossible ones', () => {
    expect(parseUsDate('05/01/2014 12:00:00 AM')).to.equal('2014-05-01');
    expect(parseUsDate('09/23/2013')).to.equal('2013-09-23');
    expect(parseUsDate('02/30/2019')).to.be.instanceOf(Error);
    expect(parseUsDate('2019-02-01')).to.be.instanceOf(Error);
    expect(parseUsDate('')).to.be.instanceOf(Error);
  });
  it('maps phases to statuses, with health from the forecast against the baseline', () => {
    const baseline = { endDate: '2020-01-01', budget: 100 };
    const on = { endDate: '2020-01-01', cost: 100 };
    expect(statusForReport('Scoping/Planning', baseline, on)).to.equal('PLANNED');
    // Close-Out is still an open phase (PID 730 goes Construction → Close-Out → Construction): judged on health.
    // Without a phase the forecasts still decide; with neither forecast there is nothing to judge (null).
    expect(statusForReport(null, baseline, { endDate: null, cost: null })).to.equal(null);
    expect(statusForReport('Design', baseline, { endDate: null, cost: null })).to.equal(null);
    for (const phase of ['Design', 'Construction Procurement', 'Construction', 'IT', 'Close-Out', null]) {
      expect(statusForReport(phase, baseline, on), String(phase)).to.equal('ON_TRACK');
    }
    // 1 day late → AT_RISK; 180 days late still AT_RISK; 181 → OFF_TRACK.
    expect(statusForReport('Design', baseline, { endDate: '2020-01-02', cost: 100 })).to.equal('AT_RISK');
    expect(statusForReport('Design', baseline, { endDate: '2020-06-29', cost: 100 })).to.equal('AT_RISK');
    expect(statusForReport('Design', baseline, { endDate: '2020-06-30', cost: 100 })).to.equal('OFF_TRACK');
    // 10 % over budget → AT_RISK; 10.01 % → OFF_TRACK.
    expect(statusForReport('Construction', baseline, { endDate: null, cost: 110 })).to.equal('AT_RISK');
    expect(statusForReport('Construction', baseline, { endDate: null, cost: 110.01 })).to.equal('OFF_TRACK');
    // Early and under budget is on track; no baseline budget means cost cannot put it at risk.
    expect(statusForReport('IT', baseline, { endDate: '2019-06-01', cost: 50 })).to.equal('ON_TRACK');
    expect(
      statusForReport('IT', { endDate: '2020-01-01', budget: null }, { endDate: null, cost: 1e9 }),
    ).to.equal('ON_TRACK');
  });
});
