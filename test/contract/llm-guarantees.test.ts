/**
 * The model mode's guarantees (docs/agents.md, Bring your own model), each over real HTTP against the scripted
 * OpenAI-compatible server (test/support/scripted-model.ts): an answer that restates the question or leaves out
 * the embedded answer's facts is never served as `model`; no UUID is ever in a prompt or an answer; every prompt
 * fits `MERIDIAN_LLM_CONTEXT_TOKENS`; the circuit breaker opens and half-opens (and `/readyz` shows it); a timed-out
 * generation and a 500 are never retried; the three structured-output modes. Runs on SQLite and on Postgres.
 */
import { expect } from 'chai';
import { ManualClock } from '../../server/clock.js';
import { SYSTEM_PROMPT } from '../../server/services/llm/model.js';
import { estimateTokens } from '../../server/services/llm/tokens.js';
import { client } from '../support/client.js';
import { makeProject } from '../support/records.js';
import {
  numberOf,
  recordsInPrompt,
  type ScriptedModel,
  startScriptedModel,
} from '../support/scripted-model.js';
import { startTestServer, type TestServer } from '../support/server.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const QUESTION = 'Which projects are over budget?';

describe('Bring your own model: guarantees', function () {
  this.timeout(60_000);
  let model: ScriptedModel;
  before(async () => {
    model = await startScriptedModel();
  });
  after(async () => {
    await model.close();
  });

  /** A server with the model configured (plus `env`), a tenant with `projects` over budget, and an ask. */
  async function world(env: Record<string, string>, projects = 1) {
    const server = await startTestServer({
      clock: new ManualClock('2026-03-02T09:00:00.000Z'),
      env: {
        MERIDIAN_LLM_BASE_URL: model.baseUrl,
        MERIDIAN_LLM_MODEL: 'scripted',
        MERIDIAN_LLM_TIMEOUT_MS: '1500',
        MERIDIAN_LLM_BREAKER_FAILURES: '1000',
        ...env,
      },
    });
    const tenant = await server.createTenant();
    const api = client(server.baseUrl, tenant.keys.write);
    for (let i = 0; i < projects; i++)
      await makeProject(api, {
        name: i === 0 ? 'Harbour tunnel' : `Harbour depot ${i} with a rather long descriptive name`,
        budget: 1_000_000,
        forecastCost: 1_250_000 + i * 1000,
        description: 'A long description that the model does not need for a budget question. '.repeat(5),
      });
    const ask = async (question = QUESTION) => {
      const res = await client(server.baseUrl, tenant.keys.read).post('askAgent', '/agents/ask', {
        body: { question },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.answer).not.to.match(UUID);
      return res.body;
    };
    return { server, ask };
  }
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    model.setDefault({ status: 500 });
  });

  it('never serves an answer that restates the question, or leaves out the facts, as the model', async () => {
    const w = await world({});
    server = w.server;
    model.push((req) => ({
      json: {
        sentences: [
          { text: 'Which projects are over budget?', records: [numberOf(req.prompt, 'Harbour tunnel')] },
        ],
      },
    }));
    const restated = await w.ask();
    expect(restated.engine).to.equal('embedded');
    expect(restated.fallbackReason).to.equal('restates_question');
    model.push((req) => ({
      json: {
        sentences: [
          { text: 'Harbour tunnel is over budget.', records: [numberOf(req.prompt, 'Harbour tunnel')] },
        ],
      },
    }));
    const vague = await w.ask();
    expect(vague.engine).to.equal('embedded');
    expect(vague.fallbackReason).to.equal('missing_facts');
    expect(vague.answer).to.contain('250,000');
  });

  it('shows the model no UUID and serves none, even when the model writes one', async () => {
    const w = await world({});
    server = w.server;
    model.push((req) => {
      expect(req.prompt).not.to.match(UUID);
      const n = numberOf(req.prompt, 'Harbour tunnel');
      return {
        json: {
          sentences: [
            {
              text: 'Harbour tunnel [id: 01a213df-70fb-7a2e-9c1b-0123456789ab] is the one project over, by $250,000 (25%).',
              records: [n],
            },
          ],
        },
      };
    });
    const body = await w.ask();
    expect(body.engine, JSON.stringify(body)).to.equal('model');
    expect(body.answer).to.equal('Harbour tunnel is the one project over, by $250,000 (25%) [1].');
    expect(body.answer).not.to.match(UUID);
  });

  it('keeps every prompt within MERIDIAN_LLM_CONTEXT_TOKENS; says prompt_too_large when nothing fits', async () => {
    const w = await world({ MERIDIAN_LLM_CONTEXT_TOKENS: '1800', MERIDIAN_LLM_MAX_TOKENS: '300' }, 25);
    server = w.server;
    let records = 0;
    model.push((req) => {
      records = recordsInPrompt(req.prompt).length;
      const system = req.body.messages[0]?.content ?? '';
      expect(system).to.equal(SYSTEM_PROMPT);
      const user = req.body.messages
        .slice(1)
        .map((m) => m.content)
        .join('\n');
      expect(estimateTokens(system) + estimateTokens(user) + 300).to.be.at.most(1800);
      expect(user).not.to.contain('A long description');
      // A question about money: no schedule fields.
      expect(user).not.to.contain('endDate');
      return { status: 500 };
    });
    await w.ask();
    expect(records).to.be.above(0).and.below(25);
    await w.server.close();
    const tight = await world({ MERIDIAN_LLM_CONTEXT_TOKENS: '600', MERIDIAN_LLM_MAX_TOKENS: '300' });
    server = tight.server;
    const before = model.requests.length;
    const body = await tight.ask();
    expect(body.fallbackReason).to.equal('prompt_too_large');
    expect(model.requests.length).to.equal(before);
  });

  it('opens the circuit breaker after N failures, half-opens for one probe, shows it in /readyz', async () => {
    const w = await world({ MERIDIAN_LLM_BREAKER_FAILURES: '2', MERIDIAN_LLM_BREAKER_COOLDOWN_MS: '800' });
    server = w.server;
    const readyz = async () => {
      const res = await fetch(`${w.server.baseUrl.replace(/\/v1$/, '')}/readyz`);
      return ((await res.json()) as { details: { languageModel: { state: string } } }).details.languageModel;
    };
    expect((await readyz()).state).to.equal('closed');
    model.setDefault({ status: 500 });
    expect((await w.ask()).fallbackReason).to.equal('model_error');
    expect((await w.ask()).fallbackReason).to.equal('model_error');
    const before = model.requests.length;
    expect((await w.ask()).fallbackReason).to.equal('circuit_open');
    expect(model.requests.length).to.equal(before);
    expect(await readyz()).to.include({ state: 'open', model: 'scripted' });
    await new Promise((r) => setTimeout(r, 900));
    expect((await readyz()).state).to.equal('half_open');
    model.setDefault((req) => ({
      json: {
        sentences: [
          {
            text: 'Harbour tunnel is the one project over, by $250,000 (25%).',
            records: [numberOf(req.prompt, 'Harbour tunnel')],
          },
        ],
      },
    }));
    expect((await w.ask()).engine).to.equal('model');
    expect((await readyz()).state).to.equal('closed');
  });

  it('never retries a timed-out generation nor a 500; retries a 503 within the deadline', async () => {
    const w = await world({ MERIDIAN_LLM_TIMEOUT_MS: '700' });
    server = w.server;
    let before = model.requests.length;
    model.push({ delayMs: 2000, json: {} });
    expect((await w.ask()).fallbackReason).to.equal('timeout');
    await new Promise((r) => setTimeout(r, 300));
    expect(model.requests.length - before).to.equal(1);
    before = model.requests.length;
    model.setDefault({ status: 500 });
    expect((await w.ask()).fallbackReason).to.equal('model_error');
    expect(model.requests.length - before).to.equal(1);
    before = model.requests.length;
    model.setDefault({ status: 503 });
    expect((await w.ask()).fallbackReason).to.equal('model_error');
    expect(model.requests.length - before).to.be.at.least(2);
  });

  for (const mode of ['json_object', 'none'] as const) {
    it(`MERIDIAN_LLM_STRUCTURED_OUTPUT=${mode}: the schema in the prompt, the JSON read from the reply`, async () => {
      const w = await world({ MERIDIAN_LLM_STRUCTURED_OUTPUT: mode });
      server = w.server;
      model.push((req) => {
        const format = req.body.response_format as { type: string } | undefined;
        if (mode === 'json_object') expect(format?.type).to.equal('json_object');
        else expect(format).to.equal(undefined);
        expect(req.body.messages[0]?.content).to.contain('JSON Schema');
        const json = JSON.stringify({
          sentences: [
            {
              text: 'Harbour tunnel is the one project over, by $250,000 (25%).',
              records: [numberOf(req.prompt, 'Harbour tunnel')],
            },
          ],
        });
        return { content: mode === 'none' ? `Here is the answer:\n\`\`\`json\n${json}\n\`\`\`` : json };
      });
      const body = await w.ask();
      expect(body.engine, JSON.stringify(body)).to.equal('model');
      expect(body.answer).to.equal('Harbour tunnel is the one project over, by $250,000 (25%) [1].');
    });
  }
});
