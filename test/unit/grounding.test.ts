/**
 * The server's check of a model's sentences (server/services/llm/grounding.ts; docs/design.md, Bring your own
 * model): ids among the records sent, every number and date among the facts after normalising formats.
 */
import { expect } from 'chai';
import { checkSentences, FactSet, keepsSubstance, scan } from '../../server/services/llm/grounding.js';

const A = '0195113c-8a2e-7f41-b6d3-2c9e4a7b1f10';
const B = '0195113c-8a2e-7f41-b6d3-2c9e4a7b1f11';

describe('grounding', () => {
  it('reads numbers and dates in their common formats', () => {
    const { dates, numbers } = scan(
      'Budget $1,234,567 vs 1.2M and $1.2 million, 12 % and 12.7%, due 2019-09-01, September 1, 2019, 1 Sep 2019, 09/01/2019 and October 2020; see [3] and ' +
        A,
    );
    expect(dates.map((d) => d.value)).to.deep.equal([
      '2019-09-01',
      '2019-09-01',
      '2019-09-01',
      '2019-09-01',
      '2020-10',
    ]);
    expect(numbers.map((n) => n.value)).to.deep.equal([1_234_567, 1_200_000, 1_200_000, 12, 12.7]);
  });

  const facts = new FactSet().add({
    budget: 1_234_567,
    forecastCost: 68_798_457,
    overrunPercent: 28.61,
    endDate: '2019-09-01',
    name: 'Pump Station 26 upgrade',
  });

  it('keeps sentences whose numbers and dates are facts, in any format, rounded as written', () => {
    const checked = checkSentences(
      [
        { text: 'Its budget is $1.2 million and its forecast $68.8M, 28.6% over.', ids: [A] },
        { text: 'It was due on September 1, 2019 (in 2019).', ids: [A.toUpperCase()] },
        { text: 'Pump Station 26 is the one.', ids: [A, B] },
      ],
      new Set([A, B]),
      facts,
    );
    expect(checked.dropped).to.deep.equal([]);
    expect(checked.kept).to.have.length(3);
    expect(checked.kept[1]?.ids).to.deep.equal([A]);
  });

  it('drops a sentence with an id not sent, an invented number or date, or no id', () => {
    const checked = checkSentences(
      [
        { text: 'Fine.', ids: ['01951160-7e9f-7085-94b6-2c1e5f7a9b54'] },
        { text: 'Its budget is $1.3 million.', ids: [A] },
        { text: 'Its forecast is 69,000,000.', ids: [A] },
        { text: 'It was due on September 2, 2019.', ids: [A] },
        { text: 'It ended in March 2021.', ids: [A] },
        { text: 'It is late.', ids: [] },
      ],
      new Set([A]),
      facts,
    );
    expect(checked.kept).to.deep.equal([]);
    expect(checked.dropped.map((d) => d.reason)).to.deep.equal([
      'unknown_id',
      'unsupported_number',
      'unsupported_number',
      'unsupported_date',
      'unsupported_date',
      'no_citation',
    ]);
    expect(keepsSubstance(checked)).to.equal(false);
  });

  it('keeps the substance while at least half of the sentences survive', () => {
    const ok = { text: 'Budget 1,234,567.', ids: [A] };
    const bad = { text: 'Budget 7.', ids: [A] };
    expect(keepsSubstance(checkSentences([ok, bad], new Set([A]), facts))).to.equal(true);
    expect(keepsSubstance(checkSentences([ok, bad, bad], new Set([A]), facts))).to.equal(false);
  });
});
