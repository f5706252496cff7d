/**
 * The model mode against a real local model (docs/agents.md, Bring your own model): Gemma 3 270M (Q4_K_M) run by
 * node-llama-cpp behind an OpenAI-compatible adapter (test/support/local-model.ts). It asks a subset of the eval's
 * golden questions through the API and asserts the server's guarantees, not the model's intelligence: every ask
 * answers 200; no answer holds a UUID; no prompt holds one and every prompt fits the context budget; an answer the
 * model wrote keeps the embedded answer's facts and does not restate the question; every fallback is labelled; no
 * answer breaks integrity. Skips itself, with the reason, when node-llama-cpp or the GGUF is not on the machine
 * (`scripts/fetch-test-model.sh` fetches both).
 */
import { expect } from 'chai';
import { startEvalWorld } from '../../eval/harness.js';
import { modelReport } from '../../eval/llm-report.js';
import { loadGolden, runGolden } from '../../eval/score.js';
import { loadConfig } from '../../server/config.js';
import { estimateTokens } from '../../server/services/llm/tokens.js';
import { type LocalModel, startLocalModel } from '../support/local-model.js';

const CONTEXT = 2048;
const MAX_TOKENS = 256;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const QUESTIONS = Number(process.env.MERIDIAN_TEST_MODEL_QUESTIONS ?? 6);
/** A CPU answers a 270M model's longest prompts in well under this; a stuck generation falls back at it. */
const TIMEOUT_MS = Number(process.env.MERIDIAN_TEST_MODEL_TIMEOUT_MS ?? 60_000);

describe('Bring your own model: a real local model', function () {
  this.timeout(30 * 60_000);
  let local: LocalModel;
  before(async function () {
    const started = await startLocalModel(CONTEXT);
    if ('skip' in started) {
      console.log(`      skipped: ${started.skip}`);
      this.skip();
    }
    local = started as LocalModel;
  });
  after(async () => {
    await local?.close();
  });

  it('keeps the guarantees over a subset of the golden set', async () => {
    const llm = loadConfig({
      NODE_ENV: 'test',
      MERIDIAN_LLM_BASE_URL: local.baseUrl,
      MERIDIAN_LLM_MODEL: local.name,
      MERIDIAN_LLM_CONTEXT_TOKENS: String(CONTEXT),
      MERIDIAN_LLM_MAX_TOKENS: String(MAX_TOKENS),
      MERIDIAN_LLM_TIMEOUT_MS: String(TIMEOUT_MS),
      // Every question reaches the model here; the breaker has its own test (test/contract/llm-guarantees.test.ts).
      MERIDIAN_LLM_BREAKER_FAILURES: '1000',
    }).llm;
    const world = await startEvalWorld({ databaseUrl: process.env.TEST_DATABASE_URL, llm });
    try {
      const golden = loadGolden();
      const subset = golden
        .filter((_, i) => i % Math.ceil(golden.length / QUESTIONS) === 0)
        .slice(0, QUESTIONS);
      const scores = await runGolden(world, subset);
      expect(scores).to.have.length(subset.length);
      for (const s of scores) {
        expect(s.answer, s.id).not.to.match(UUID);
        expect(s.integrity, `${s.id}: ${s.answer}`).to.deep.equal([]);
        if (s.engine === 'model') expect(s.answer.trim().endsWith('?'), s.answer).to.equal(false);
        else if (s.fallbackReason === undefined) expect(s.cited, `${s.id} fell back unlabelled`).to.equal(0);
      }
      expect(local.prompts.length).to.be.above(0);
      for (const p of local.prompts) {
        expect(p.user).not.to.match(UUID);
        expect(estimateTokens(p.system) + estimateTokens(p.user) + MAX_TOKENS).to.be.at.most(CONTEXT);
      }
      console.log(`      ${local.name}, ${scores.length} questions:`);
      for (const line of modelReport(scores)) console.log(`        ${line}`);
      for (const reply of local.replies.slice(0, 3)) console.log(`        a reply: ${reply.slice(0, 200)}`);
    } finally {
      await world.close();
    }
  });
});
