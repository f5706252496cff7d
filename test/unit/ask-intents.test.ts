/**
 * The Ask agent's pure parts: the intent rules (services/ask/intents.ts), tag matching, the figures an answer
 * writes, citation markers and numbering, and the sentence a search hit quotes.
 */
import { expect } from 'chai';
import { markers } from '../../server/services/ask/embedded.js';
import { type FacetValue, facetsIn, type Intent, parseIntent } from '../../server/services/ask/intents.js';
import { bestSentence } from '../../server/services/ask/retrieval.js';
import { countIn, money, normalise, percent } from '../../server/services/ask/text.js';

const FACETS: FacetValue[] = [
  { field: 'borough', value: 'Brooklyn' },
  { field: 'borough', value: 'Queens' },
  { field: 'borough', value: 'Staten Island' },
  { field: 'managingAgency', value: 'DEP' },
  { field: 'clientAgency', value: 'DEP' },
  { field: 'managingAgency', value: 'DOT' },
  { field: 'category', value: 'Wastewater Treatment' },
  { field: 'tags', value: 'IT' },
  { field: 'tags', value: 'Brooklyn' },
];

function intentOf(question: string, hasSubject = false): Intent {
  return parseIntent(question, normalise(question), { hasSubject, facets: FACETS });
}

describe('Ask intent rules', () => {
  const portfolio: [string, Partial<Intent> & { kind: Intent['kind'] }][] = [
    ['Which projects are at risk?', { kind: 'projects', form: 'list', filter: { statuses: ['AT_RISK'] } }],
    [
      'Which projects are off-track?',
      { kind: 'projects', form: 'list', filter: { statuses: ['OFF_TRACK'] } },
    ],
    ['Which projects are in trouble?', { kind: 'projects', filter: { statuses: ['AT_RISK', 'OFF_TRACK'] } }],
    ['Which projects are at risk of a budget overrun?', { kind: 'projects', filter: { overBudget: true } }],
    ['Which projects are behind schedule?', { kind: 'projects', filter: { late: true } }],
    [
      'How many projects are on track?',
      { kind: 'projects', form: 'count', filter: { statuses: ['ON_TRACK'] } },
    ],
    [
      'How many DEP projects are in Queens?',
      {
        kind: 'projects',
        form: 'count',
        filter: {
          facets: [
            { field: 'borough', values: ['Queens'] },
            { field: 'agency', values: ['DEP'] },
          ],
        },
      },
    ],
    [
      'Which projects in Brooklyn or Queens have DEP as client?',
      {
        kind: 'projects',
        filter: {
          facets: [
            { field: 'borough', values: ['Brooklyn', 'Queens'] },
            { field: 'clientAgency', values: ['DEP'] },
          ],
        },
      },
    ],
    ['What are the five largest cost overruns?', { kind: 'ranking', measure: 'overrun', n: 5 }],
    ['Which 3 projects have the biggest overruns?', { kind: 'ranking', measure: 'overrun', n: 3 }],
    ['Largest overrun in percentage terms', { kind: 'ranking', measure: 'overrunPercent', n: 5 }],
    ['Show the top 10 schedule delays', { kind: 'ranking', measure: 'slip', n: 10 }],
    ['What is the total budget of projects in Brooklyn?', { kind: 'projectSum', field: 'budget' }],
    ['Total forecast cost of DOT projects', { kind: 'projectSum', field: 'forecastCost' }],
    [
      'What are the open high risks?',
      { kind: 'risks', severities: ['HIGH', 'CRITICAL'], statuses: ['OPEN', 'MITIGATING'] },
    ],
    ['Which risks are still unmitigated?', { kind: 'risks', statuses: ['OPEN'] }],
    ['How many open risks are there?', { kind: 'risks', form: 'count', statuses: ['OPEN', 'MITIGATING'] }],
    [
      'Which issues are critical?',
      { kind: 'issues', priorities: ['CRITICAL'], statuses: ['OPEN', 'IN_PROGRESS'] },
    ],
    ['Which milestones were missed?', { kind: 'milestones', which: 'missed' }],
    ['What are the upcoming milestones?', { kind: 'milestones', which: 'upcoming' }],
    ['Who is over-allocated?', { kind: 'overAllocated' }],
    ['Which people are overbooked next month?', { kind: 'overAllocated' }],
    ['Anything about hurricanes?', { kind: 'search', terms: ['hurricanes'] }],
    ['What will the weather be like in Paris tomorrow?', { kind: 'search', terms: ['weather', 'paris'] }],
  ];
  for (const [question, expected] of portfolio) {
    it(`reads “${question}”`, () => {
      expect(intentOf(question)).to.deep.include(expected);
    });
  }

  it('reads a question about one project as its aspects, with overview for “how is it doing”', () => {
    const risks = intentOf('What are the open critical risks of it?', true);
    expect(risks).to.deep.include({ kind: 'project', aspects: ['risks'] });
    expect((risks as Extract<Intent, { kind: 'project' }>).risks).to.deep.equal({
      severities: ['CRITICAL'],
      statuses: ['OPEN', 'MITIGATING'],
    });
    expect(intentOf('Who manages it and when does it finish?', true)).to.deep.include({
      aspects: ['manager', 'dates'],
    });
    expect(intentOf('How is it doing?', true)).to.deep.include({ aspects: ['overview', 'status'] });
    expect(intentOf('Is it at risk?', true)).to.deep.include({ aspects: ['status'] });
  });

  it('reads a question naming a person as what the person works on, or as their over-allocation', () => {
    const ctx = { hasSubject: false, hasPerson: true, facets: FACETS };
    expect(
      parseIntent('What is Priya Nair working on?', normalise('What is Priya Nair working on?'), ctx),
    ).to.deep.equal({
      kind: 'person',
    });
    expect(parseIntent('Is Dev Patel overbooked?', normalise('Is Dev Patel overbooked?'), ctx)).to.deep.equal(
      {
        kind: 'overAllocated',
      },
    );
  });

  it('matches facet values as whole words, short acronyms only in capitals, one field per value', () => {
    expect(facetsIn('Is it late?', FACETS)).to.deep.equal([]);
    expect(facetsIn('Which IT projects are late?', FACETS)).to.deep.equal([
      { field: 'tags', values: ['IT'] },
    ]);
    expect(facetsIn('projects of dep in queens', FACETS)).to.deep.equal([
      { field: 'borough', values: ['Queens'] },
    ]);
    expect(facetsIn('wastewater treatment projects on staten island', FACETS)).to.deep.equal([
      { field: 'borough', values: ['Staten Island'] },
      { field: 'category', values: ['Wastewater Treatment'] },
    ]);
    expect(facetsIn('Brooklynite projects', FACETS)).to.deep.equal([]);
    expect(facetsIn('DEP as client agency', FACETS)).to.deep.equal([
      { field: 'clientAgency', values: ['DEP'] },
    ]);
  });

  it('reads small counts in digits or words', () => {
    expect(countIn('top 3 overruns')).to.equal(3);
    expect(countIn('the ten largest slips')).to.equal(10);
    expect(countIn('largest slips')).to.equal(null);
  });
});

describe('Ask answer figures and citations', () => {
  it('writes money exactly, thousands grouped, with the currency sign or code', () => {
    expect(money(51_200_000, 'USD')).to.equal('$51,200,000');
    expect(money(-4_318_643.37, 'USD')).to.equal('-$4,318,643.37');
    expect(money(1200, 'CHF')).to.equal('1,200 CHF');
    expect(money(91_250_000.5, 'USD')).to.equal('$91,250,000.50');
    expect(percent(5.5555)).to.equal('5.6%');
  });

  it('writes runs of five or more markers as a range', () => {
    expect(markers([1, 2, 3])).to.equal('[1][2][3]');
    expect(markers([3, 1, 2, 4, 5, 9])).to.equal('[1]–[5][9]');
    expect(markers([])).to.equal('');
  });

  it('quotes the sentence of a record that holds most search terms', () => {
    const text =
      'Rehabilitation of the piers. Schedule marine works outside the hurricane season. Gangways too.';
    expect(bestSentence(text, ['hurricanes'])).to.equal(
      'Schedule marine works outside the hurricane season.',
    );
  });
});
