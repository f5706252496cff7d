/**
 * `npm run eval`: builds the eval world (eval/harness.ts), asks every question of eval/golden/ through the API
 * and prints citation precision, citation recall and fact accuracy, overall and per category, with every miss.
 * `DATABASE_URL=postgres://…` runs it on Postgres. Exits 1 when a figure is below the thresholds the test holds
 * (precision ≥ 0.95, recall ≥ 0.90, fact accuracy 1.0, no integrity error).
 *
 * `npm run eval -- --engine llm` (docs/agents.md, Bring your own model) answers with the model of
 * `MERIDIAN_LLM_BASE_URL` / `MERIDIAN_LLM_MODEL` (read by server/config.ts) and prints the same figures, with how
 * many answers the model wrote, how many fell back (and why) and how many sentences the server dropped. Without a
 * model configured it says so and exits 2: there is no scripted stand-in here, since a scripted server's figures
 * would say nothing of a model's quality. The thresholds are the embedded engine's; for a model the exit status is
 * 1 only on an integrity error (an `[n]` that resolves to nothing, a citation of another tenant), which the
 * server's checks must make impossible.
 */
import { loadConfig } from '../server/config.js';
import { startEvalWorld } from './harness.js';
import { modelReport } from './llm-report.js';
import {
  answerRight,
  type Figures,
  figuresOf,
  HARDER_SETS,
  loadGolden,
  type QuestionScore,
  runGolden,
} from './score.js';

/** The thresholds the embedded engine is held to (docs/agents.md, Ask). */
export const THRESHOLDS = { precision: 0.95, recall: 0.9, factAccuracy: 1 } as const;

/** Whether figures meet the thresholds, pooled and per question. */
export function meetsThresholds(f: Figures): boolean {
  return (
    f.precision >= THRESHOLDS.precision &&
    f.meanPrecision >= THRESHOLDS.precision &&
    f.recall >= THRESHOLDS.recall &&
    f.meanRecall >= THRESHOLDS.recall &&
    f.factAccuracy >= THRESHOLDS.factAccuracy &&
    f.meanFactAccuracy >= THRESHOLDS.factAccuracy &&
    f.integrityErrors === 0
  );
}

function row(name: string, f: Figures): Record<string, string | number> {
  const r = (x: number) => x.toFixed(3);
  return {
    category: name,
    questions: f.questions,
    'answers right': r(f.accuracy),
    precision: r(f.precision),
    recall: r(f.recall),
    'fact accuracy': r(f.factAccuracy),
    'precision (mean)': r(f.meanPrecision),
    'recall (mean)': r(f.meanRecall),
    'facts (mean)': r(f.meanFactAccuracy),
    'integrity errors': f.integrityErrors,
    refusals: `${f.refusalsMade}/${f.refusalsExpected}`,
  };
}

/** The table: one row per category, then the overall figures. */
export function report(scores: QuestionScore[]): Record<string, string | number>[] {
  const categories = [...new Set(scores.map((s) => s.category))].sort();
  return [
    ...categories.map((c) => row(c, figuresOf(scores.filter((s) => s.category === c)))),
    row('ALL', figuresOf(scores)),
  ];
}

/** The engine asked for on the command line: `--engine embedded` (default) or `--engine llm`. */
function engineArg(argv: readonly string[]): 'embedded' | 'llm' {
  const i = argv.indexOf('--engine');
  const value = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--engine='))?.slice('--engine='.length);
  if (value === undefined || value === 'embedded') return 'embedded';
  if (value === 'llm' || value === 'model') return 'llm';
  throw new Error(`--engine must be embedded or llm, got "${value}"`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const databaseUrl = process.env.DATABASE_URL;
  const engine = engineArg(process.argv.slice(2));
  const llm = engine === 'llm' ? loadConfig().llm : null;
  if (engine === 'llm' && !llm) {
    console.error(
      'npm run eval -- --engine llm: no model is configured. Set MERIDIAN_LLM_BASE_URL and MERIDIAN_LLM_MODEL ' +
        '(e.g. http://127.0.0.1:11434/v1 and llama3.1:8b for Ollama; see the README, "Bring your own model").',
    );
    process.exit(2);
  }
  const world = await startEvalWorld({ databaseUrl, llm, log: (line) => console.error(line) });
  try {
    const questions = loadGolden();
    const scores = await runGolden(world, questions);
    // The harder set (eval/hard/) and its held-out part (eval/held-out/): reported, not held to the thresholds.
    const harder: [string, QuestionScore[]][] = [];
    for (const [name, dir] of HARDER_SETS) harder.push([name, await runGolden(world, loadGolden(dir))]);
    const verbose = process.argv.includes('--verbose');
    for (const s of scores) {
      const miss =
        s.missingRecords.length || s.extraRecords.length || s.missingFacts.length || s.integrity.length;
      if (!miss && !verbose) continue;
      console.log(`\n${s.id} [${s.category}] ${s.question}\n  ${s.answer.slice(0, 600)}`);
      if (s.missingRecords.length) console.log(`  missing records: ${s.missingRecords.length}`);
      if (s.extraRecords.length) console.log(`  not relevant: ${s.extraRecords.join(', ')}`);
      if (s.missingFacts.length) console.log(`  missing facts: ${s.missingFacts.join(', ')}`);
      if (s.integrity.length) console.log(`  integrity: ${s.integrity.join('; ')}`);
    }
    const all = figuresOf(scores);
    console.log(
      `\nAsk eval: ${scores.length} questions on ${databaseUrl ? 'Postgres' : 'SQLite'}, engine ${[...new Set(scores.map((s) => s.engine))].join(', ')}`,
    );
    console.table(report(scores));
    for (const [name, set] of harder) {
      for (const s of set) {
        if (answerRight(s) && !s.integrity.length && !verbose) continue;
        console.log(`\n${s.id} [${s.category}] ${s.question}\n  ${s.answer.slice(0, 400)}`);
        if (s.extraRecords.length) console.log(`  not relevant: ${s.extraRecords.slice(0, 5).join(', ')}`);
        if (s.missingRecords.length) console.log(`  missing records: ${s.missingRecords.length}`);
        if (s.missingFacts.length) console.log(`  missing facts: ${s.missingFacts.join(', ')}`);
        if (s.integrity.length) console.log(`  integrity: ${s.integrity.slice(0, 5).join('; ')}`);
      }
      console.log(`\nAsk eval, ${name} set: ${set.length} questions`);
      console.table(report(set));
    }
    const ok = meetsThresholds(all);
    console.log(
      `precision ${all.precision.toFixed(3)} (≥ ${THRESHOLDS.precision}), recall ${all.recall.toFixed(3)} (≥ ${THRESHOLDS.recall}), fact accuracy ${all.factAccuracy.toFixed(3)} (= ${THRESHOLDS.factAccuracy}): ${ok ? 'PASS' : 'FAIL'}`,
    );
    if (llm) {
      console.log(`model ${llm.model} at ${llm.baseUrl}:`);
      for (const line of modelReport(scores)) console.log(`  ${line}`);
      process.exitCode = all.integrityErrors === 0 ? 0 : 1;
    } else process.exitCode = ok ? 0 : 1;
  } finally {
    await world.close();
  }
}
