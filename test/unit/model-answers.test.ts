/**
 * The model mode's pure parts (docs/agents.md, Bring your own model): ids cut out of a model's text, restatements
 * of the question, completeness against the embedded answer, the token estimate, the circuit breaker's states and
 * the JSON read out of a reply without structured output.
 */
import { expect } from 'chai';
import { fieldsFor } from '../../server/services/ask/model-prompt.js';
import { hasUuid, missingFacts, recordsOf, restates, withoutIds } from '../../server/services/llm/answers.js';
import { CircuitBreaker } from '../../server/services/llm/breaker.js';
import { jsonIn } from '../../server/services/llm/model.js';
import { estimateTokens } from '../../server/services/llm/tokens.js';

const ID = '01a213df-70fb-7a2e-9c1b-0123456789ab';

describe('model answers', () => {
  it('cuts every UUID out of a text, with its brackets and label', () => {
    for (const text of [
      `Harbour tunnel has status OFF_TRACK [id: ${ID}].`,
      `Harbour tunnel (${ID}) has status OFF_TRACK.`,
      `Harbour tunnel id ${ID} has status OFF_TRACK.`,
      `Harbour tunnel [${ID}, ${ID.replace('01a', '02b')}] has status OFF_TRACK.`,
    ]) {
      const clean = withoutIds(text);
      expect(hasUuid(clean), clean).to.equal(false);
      expect(clean).to.equal('Harbour tunnel has status OFF_TRACK.');
    }
  });

  it('tells a restatement of the question from an answer', () => {
    const q = 'Which project has the largest forecast overrun?';
    expect(restates('Which project has the largest forecast overrun [1][2]?', q)).to.equal(true);
    expect(restates('The project has the largest forecast overrun.', q)).to.equal(true);
    expect(restates('Harbour tunnel has the largest forecast overrun, $250,000.', q)).to.equal(false);
    // A yes/no question is answered by its own words.
    expect(restates('Harbour tunnel is over budget.', 'Is Harbour tunnel over budget?')).to.equal(false);
  });

  it('requires the figures, dates, counts and names of the embedded answer', () => {
    const embedded =
      '2 projects over budget: Harbour tunnel (over by $250,000, 25.0%) and Library roof, due 2026-06-30.';
    const names = ['Harbour tunnel', 'Library roof'];
    expect(
      missingFacts(
        'Two projects are over: Harbour tunnel by $0.25 million (25%) and library roof, due June 30, 2026.',
        embedded,
        names,
      ),
    ).to.deep.equal([]);
    expect(missingFacts('Harbour tunnel is over budget.', embedded, names)).to.deep.equal([
      '2026-06-30',
      '2',
      '250,000',
      '25.0%',
      'Library roof',
    ]);
  });

  it("takes a sentence's [n] markers as its records when it gives none", () => {
    expect(recordsOf({ text: 'Harbour tunnel is over [2][5].', records: [] })).to.deep.equal([2, 5]);
    expect(recordsOf({ text: 'Harbour tunnel is over [2].', records: [3] })).to.deep.equal([3]);
  });

  it('estimates tokens conservatively: a digit each, three bytes each otherwise', () => {
    expect(estimateTokens('123456')).to.equal(6);
    expect(estimateTokens('abcdef')).to.equal(2);
    expect(estimateTokens(ID)).to.equal(26);
  });

  it('opens after N failures, half-opens for one probe, closes on its success', () => {
    let now = 0;
    const breaker = new CircuitBreaker({ failures: 2, cooldownMs: 1000, now: () => now });
    breaker.failed(breaker.admit() as 'call');
    expect(breaker.state().state).to.equal('closed');
    breaker.failed(breaker.admit() as 'call');
    expect(breaker.state()).to.include({ state: 'open', consecutiveFailures: 2 });
    expect(breaker.admit()).to.equal(null);
    now = 1000;
    expect(breaker.state().state).to.equal('half_open');
    expect(breaker.admit()).to.equal('probe');
    expect(breaker.admit()).to.equal(null);
    breaker.failed('probe');
    expect(breaker.state().state).to.equal('open');
    now = 2000;
    expect(breaker.admit()).to.equal('probe');
    breaker.succeeded();
    expect(breaker.state()).to.deep.equal({ state: 'closed', consecutiveFailures: 0 });
  });

  it('sends a question about money no schedule fields, and the reverse; any other question every field', () => {
    const money = fieldsFor('Which projects are over budget?');
    expect(['budget', 'forecastCost', 'name', 'status'].every(money)).to.equal(true);
    expect(['endDate', 'forecastEndDate', 'slipDays'].some(money)).to.equal(false);
    const late = fieldsFor('Which projects are late?');
    expect(['endDate', 'forecastEndDate', 'slipDays', 'name'].every(late)).to.equal(true);
    expect(['budget', 'forecastCost', 'overrun'].some(late)).to.equal(false);
    const both = fieldsFor('Tell me about Harbour tunnel');
    expect(['budget', 'endDate', 'name'].every(both)).to.equal(true);
  });

  it('reads the JSON out of a reply: whole, fenced or between the outer braces', () => {
    expect(jsonIn('{"a":1}')).to.deep.equal({ a: 1 });
    expect(jsonIn('Sure:\n```json\n{"a":1}\n```')).to.deep.equal({ a: 1 });
    expect(jsonIn('Here: {"a":{"b":2}} done')).to.deep.equal({ a: { b: 2 } });
    expect(jsonIn('no json')).to.equal(undefined);
  });
});
