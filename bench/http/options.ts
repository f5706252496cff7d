/**
 * The HTTP benchmark's constants and command-line options (bench/http.bench.ts describes them).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Bump when the seed changes, so cached files are rebuilt. */
export const SEED_VERSION = 'large-v1';
/** The NYC demo tenant's admin key in benchmark runs (MERIDIAN_API_KEY). */
export const NYC_KEY = `mk_live_${'N'.repeat(20)}${'y'.repeat(20)}`;
/** Clock ticks per second of /proc's CPU times. */
export const CLK_TCK = 100;

export interface Options {
  serverDir: string;
  node: string;
  out: string;
  duration: number;
  rounds: number;
  connections: number;
  only: string | null;
  profile: string | null;
  /** `--peers`: the peers benchmark (bench/http/peers.ts) instead of the bare-Express one. */
  peers: boolean;
  /** `--pg URL`: the benchmark's own Postgres (a user that may create databases), for `--peers`. */
  pg: string | null;
  /** `--pg-dir DIR`: that server's folder (scripts/pg-test-server.sh's MERIDIAN_PG_DIR), to read its CPU. */
  pgDir: string | null;
}

export function parseOptions(argv: string[]): Options {
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  return {
    serverDir: path.resolve(get('server-dir') ?? ROOT),
    node: get('node') ?? process.execPath,
    out: get('out') ?? 'http',
    duration: Number(get('duration') ?? 5),
    rounds: Number(get('rounds') ?? 3),
    connections: Number(get('connections') ?? 50),
    only: get('only') ?? null,
    profile: get('profile') ?? null,
    peers: argv.includes('--peers'),
    pg: get('pg') ?? null,
    pgDir: get('pg-dir') ?? null,
  };
}
