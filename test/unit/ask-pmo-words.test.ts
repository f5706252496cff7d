/**
 * The Ask agent's pure readers of how a PMO asks (docs/agents.md, Ask: names, groups, scopes, time words and gaps):
 * periods and the reference date, names across spacing, abbreviations and typos, groupings, scopes, money
 * thresholds, status words, advice; and the milestones the NYC import derives from a report history.
 */
import { expect } from 'chai';
import { deriveMilestones } from '../../server/import/nyc/milestones.js';
import type { StoredStatusReport } from '../../server/repositories/status-reports.js';
import { groupingIn, moneyThresholdIn, scopeIn } from '../../server/services/ask/describing.js';
import { type FacetValue, parseIntent } from '../../server/services/ask/intents.js';
import { editDistance, expandedWords, matchName, sameWord } from '../../server/services/ask/names.js';
import { describePeriod, periodIn, referenceDate } from '../../server/services/ask/periods.js';
import { isStopword, normalise } from '../../server/services/ask/text.js';

const FACETS: FacetValue[] = [
  { field: 'borough', value: 'Brooklyn' },
  { field: 'borough', value: 'Queens' },
  { field: 'managingAgency', value: 'DEP' },
];
const parse = (q: string, hasSubject = false) => parseIntent(q, normalise(q), { hasSubject, facets: FACETS });

describe('Ask: how a PMO asks', () => {
  it('reads periods relative to a reference date (ISO weeks, calendar months and quarters)', () => {
    const ref = '2019-09-01'; // a Sunday
    const at = (q: string) => {
      const p = periodIn(normalise(q), ref);
      return p && [p.from, p.to];
    };
    expect(at('Anything on fire this week?')).to.deep.equal(['2019-08-26', '2019-09-01']);
    expect(at('next week')).to.deep.equal(['2019-09-02', '2019-09-08']);
    expect(at('Who is overallocated next month?')).to.deep.equal(['2019-10-01', '2019-10-31']);
    expect(at('What went red last quarter?')).to.deep.equal(['2019-04-01', '2019-06-30']);
    expect(at('since March')).to.deep.equal(['2019-03-01', '2019-09-01']);
    expect(at('since November')).to.deep.equal(['2018-11-01', '2019-09-01']);
    expect(at('in May 2018')).to.deep.equal(['2018-05-01', '2018-05-31']);
    expect(at('in February')).to.deep.equal(['2019-02-01', '2019-02-28']);
    expect(at('the last 30 days')).to.deep.equal(['2019-08-02', '2019-09-01']);
    expect(at('Q4 2019')).to.deep.equal(['2019-10-01', '2019-12-31']);
    expect(at('last year')).to.deep.equal(['2018-01-01', '2018-12-31']);
    expect(at('Which projects are late?')).to.equal(null);
  });

  it('judges historical data against its latest report and says so', () => {
    expect(referenceDate('2026-11-25', '2019-09-01')).to.deep.equal({ date: '2019-09-01', basis: 'data' });
    expect(referenceDate('2026-11-25', '2026-11-01')).to.deep.equal({ date: '2026-11-25', basis: 'today' });
    expect(referenceDate('2026-11-25', null)).to.deep.equal({ date: '2026-11-25', basis: 'today' });
    const p = periodIn('next month', '2019-09-01');
    expect(p).to.not.equal(null);
    if (!p) return;
    expect(describePeriod(p, { date: '2019-09-01', basis: 'data' }, 'America/New_York')).to.equal(
      '“next month” is read as 2019-10-01 to 2019-10-31, relative to 2019-09-01, the date of the latest status report, because the data is historical.',
    );
    expect(describePeriod(p, { date: '2019-09-01', basis: 'today' }, 'America/New_York')).to.include(
      'relative to today, 2019-09-01 in America/New_York',
    );
  });

  it('matches names across joined words, abbreviations and typos, never digits', () => {
    const name = '26th Ward Waste Water Treatment Plant Preliminary Treatment Improvements';
    const all = expandedWords(name);
    const content = all.filter((w) => !isStopword(w));
    const m = matchName(content, all, expandedWords('the 26th Ward Wastewater Treatment Plant'));
    expect(m.matched).to.equal(7);
    expect(m.total).to.equal(9);
    expect(matchName(content, all, expandedWords('26th Ward WWTP')).matched).to.equal(7);
    expect(expandedWords('PS 19 on 4th St. in Bklyn')).to.deep.equal([
      'public',
      'school',
      '19',
      'on',
      '4th',
      'street',
      'in',
      'brooklyn',
    ]);
    expect(expandedWords('what is it')).to.deep.equal(['what', 'is', 'it']);
    expect(sameWord('eastvew', 'eastview')).to.equal(true);
    expect(sameWord('conection', 'connection')).to.equal(true);
    expect(sameWord('defense', 'defence')).to.equal(true);
    expect(sameWord('26th', '27th')).to.equal(false);
    expect(sameWord('ward', 'warm')).to.equal(false);
    expect(editDistance('kitten', 'sitting', 5)).to.equal(3);
    expect(editDistance('kitten', 'sitting', 1)).to.equal(2);
    const exact = matchName(
      ['dumbo', 'vinegar'],
      ['dumbo', 'vinegar'],
      expandedWords('Dumbo-Vinegar status'),
    );
    expect(exact.exact).to.equal(true);
  });

  it('reads groupings, comparisons, scopes and money thresholds', () => {
    const t = (q: string) => normalise(q);
    expect(groupingIn(t('Which borough has the most delayed projects?'), null)).to.deep.equal({
      by: 'borough',
      measure: 'count',
    });
    expect(groupingIn(t('Total budget by agency'), null)).to.deep.equal({
      by: 'managingAgency',
      measure: 'budget',
    });
    expect(groupingIn(t('Who manages the most projects?'), null)).to.deep.equal({
      by: 'manager',
      measure: 'count',
    });
    expect(groupingIn(t('How many projects per status?'), null)).to.deep.equal({
      by: 'status',
      measure: 'count',
    });
    expect(groupingIn(t('Compare Brooklyn and Queens'), 'borough')).to.deep.equal({
      by: 'borough',
      measure: 'count',
    });
    expect(groupingIn(t('How many projects are in Brooklyn?'), null)).to.equal(null);
    expect(scopeIn(t('Summarise the risks of the largest project'))).to.deep.equal({
      measure: 'budget',
      words: 'the largest project',
    });
    expect(scopeIn(t('What is the history of the most delayed DEP project?'))?.measure).to.equal('slip');
    expect(scopeIn(t('the most over-budget project'))?.measure).to.equal('overrun');
    expect(scopeIn(t('Which are the largest projects?'))).to.equal(null);
    expect(moneyThresholdIn(t('projects in Queens over $100 M'))).to.deep.equal({
      field: 'budget',
      min: 100_000_000,
    });
    expect(moneyThresholdIn(t('forecast under 2.5bn'))).to.deep.equal({
      field: 'forecastCost',
      max: 2_500_000_000,
    });
    expect(moneyThresholdIn(t('projects over 5 years old'))).to.equal(null);
  });

  it('maps status words, reads groupings and declines advice', () => {
    expect(parse('Is anything on fire?')).to.deep.include({ kind: 'projects' });
    expect(
      (parse('Is anything on fire?') as { filter: { statuses: string[] } }).filter.statuses,
    ).to.deep.equal(['OFF_TRACK']);
    expect(
      (parse('Which projects are amber?') as { filter: { statuses: string[] } }).filter.statuses,
    ).to.deep.equal(['AT_RISK']);
    expect(parse('Which borough has the most delayed projects?')).to.deep.equal({
      kind: 'groups',
      grouping: { by: 'borough', measure: 'count' },
      filter: { late: true },
    });
    expect(parse('Compare Brooklyn and Queens')).to.deep.include({ kind: 'groups' });
    expect(parse('Projects in Queens over $100 M')).to.deep.equal({
      kind: 'projects',
      form: 'list',
      filter: {
        facets: [{ field: 'borough', values: ['Queens'] }],
        money: { field: 'budget', min: 100_000_000 },
      },
      terms: [],
    });
    expect(parse('What changed in the last status report of it?', true)).to.deep.include({
      kind: 'project',
      latestReport: true,
    });
    expect(parse('How has it changed over time?', true)).to.not.have.property('latestReport');
    expect(parse('Should we cancel the Gowanus project?', true)).to.deep.equal({ kind: 'advice' });
    expect(parse('What should I do about DEP?')).to.deep.equal({ kind: 'advice' });
  });

  it('derives milestones from phase changes and the forecast finish, citing the reports', () => {
    const report = (id: string, asOf: string, phase: string | null, forecastEndDate: string | null) =>
      ({ id, asOf, phase, forecastEndDate, status: 'ON_TRACK' }) as unknown as StoredStatusReport;
    const out = deriveMilestones(
      [
        report('r1', '2016-01-01', 'Design', '2019-01-01'),
        report('r2', '2017-01-01', 'Construction', '2019-06-01'),
        report('r3', '2018-01-01', 'Design', '2019-06-01'),
        report('r4', '2019-01-01', 'Construction', '2020-01-01'),
      ],
      '2018-12-31',
    );
    expect(out.map((m) => [m.name, m.dueDate, m.status])).to.deep.equal([
      ['Construction phase reached (derived)', '2017-01-01', 'COMPLETED'],
      ['Design phase reached (derived)', '2018-01-01', 'COMPLETED'],
      ['Construction phase reached again on 2019-01-01 (derived)', '2019-01-01', 'COMPLETED'],
      ['Forecast completion (derived)', '2020-01-01', 'PENDING'],
    ]);
    expect(out[0]?.description).to.equal(
      'Derived from the status reports, not entered: the phase went from “Design” (status report r1 of 2016-01-01) to “Construction” (status report r2 of 2017-01-01).',
    );
    expect(out[3]?.description).to.equal(
      'Derived from the status reports, not entered: baseline end 2018-12-31; the forecast finish went 2019-01-01 (status report r1 of 2016-01-01) → 2019-06-01 (status report r2 of 2017-01-01) → 2020-01-01 (status report r4 of 2019-01-01).',
    );
    expect(deriveMilestones([], '2018-12-31')).to.deep.equal([]);
  });
});
