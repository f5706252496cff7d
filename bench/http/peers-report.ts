/**
 * The peers benchmark's table (bench/http/peers.ts): each server's figures per subject, then the ratios the targets
 * of bench/README.md name — Meridian on Postgres and on SQLite against tuned Directus and against bare Express, and 2
 * API processes against one.
 */
import type { Summary } from './load.js';

/** One server's figures on one subject. */
export interface PeerResult {
  subject: string;
  title: string;
  /** `sqlite`, `pg`, `pg×2` (Meridian), `directus` or `bare`. */
  server: string;
  summary: Summary;
  /** Postgres's own CPU (every process of the server) per request, µs; null when the server does not use it. */
  pgCpuMicrosPerRequest: number | null;
  /** Transactions of the server's database per request (pg_stat_database); null where not measured. */
  transactionsPerRequest: number | null;
}

const fmt = (n: number) => n.toLocaleString('en-US');
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b === 0 ? '—' : `${(a / b).toFixed(2)}×`;

export function peersMarkdown(
  meta: Record<string, string | number>,
  results: PeerResult[],
): string {
  const lines = [
    `Node ${meta.node}, Postgres ${meta.postgres}, commit ${meta.commit}, ${meta.cpu} (${meta.cores} cores, load average ${meta.load} at the end); ${meta.connections} connections, ${meta.rounds} × ${meta.secondsPerRound} s per subject and server, alternating; servers and Postgres on core 0, autocannon on core 1.`,
    '',
    '| Subject | Server | req/s | p50 / p99 ms | server CPU µs/req | Postgres CPU µs/req | transactions/req | non-2xx |',
    '|---|---|---:|---|---:|---:|---:|---:|',
  ];
  for (const r of results) {
    lines.push(
      `| ${r.title} | ${r.server} | ${fmt(r.summary.reqPerSec)} | ${r.summary.p50} / ${r.summary.p99} | ${fmt(r.summary.cpuMicrosPerRequest)} | ${r.pgCpuMicrosPerRequest === null ? '—' : fmt(r.pgCpuMicrosPerRequest)} | ${r.transactionsPerRequest ?? '—'} | ${r.summary.non2xx} |`,
    );
  }
  lines.push(
    '',
    '| Subject | Meridian pg / Directus | Meridian SQLite / Directus | Meridian SQLite / bare Express | Meridian pg / bare Express | 2 processes / 1 (pg) |',
    '|---|---:|---:|---:|---:|---:|',
  );
  for (const subject of [...new Set(results.map((r) => r.subject))]) {
    const rps = (server: string) => results.find((r) => r.subject === subject && r.server === server)?.summary.reqPerSec;
    const title = results.find((r) => r.subject === subject)?.title ?? subject;
    lines.push(
      `| ${title} | ${ratio(rps('pg'), rps('directus'))} | ${ratio(rps('sqlite'), rps('directus'))} | ${ratio(rps('sqlite'), rps('bare'))} | ${ratio(rps('pg'), rps('bare'))} | ${ratio(rps('pg×2'), rps('pg'))} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
