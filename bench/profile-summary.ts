/**
 * Summarises a V8 CPU profile (`node --cpu-prof`, e.g. from `npm run bench -- http --only get-project --profile DIR`):
 * self time per function and per package, as a share of the samples, largest first.
 *
 * Usage: `node --import tsx bench/profile-summary.ts FILE.cpuprofile [TOP] [SKIP_MS]` (the HTTP benchmark prints the
 * SKIP_MS that leaves out the server's start-up).
 */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame comes from: a package under node_modules, node's own code, or our source folder. */
function packageOf(url: string): string {
  if (!url) return '(native/V8)';
  if (url.startsWith('node:')) return 'node:internal';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  const m = /\/(server|bench|generated)\/(.*)$/.exec(url);
  return m ? `${m[1]}/${m[2]}` : url;
}

/**
 * Self time per function and per package, in % of the busy samples.
 * @param skipMs samples in the first `skipMs` ms of the profile are left out (start-up: module loading, the spec).
 */
export function summarise(profile: Profile, top = 25, skipMs = 0): { functions: string[]; packages: string[] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfTime = new Map<number, number>();
  let at = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < skipMs * 1000) return;
    selfTime.set(id, (selfTime.get(id) ?? 0) + delta);
  });
  let total = 0;
  for (const t of selfTime.values()) total += t;
  const idle = new Set(['(idle)', '(program)']);
  const fn = new Map<string, number>();
  const pkg = new Map<string, number>();
  let busy = 0;
  for (const [id, t] of selfTime) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (idle.has(functionName)) continue;
    busy += t;
    const name = `${functionName || '(anonymous)'} ${packageOf(url)}${url ? `:${lineNumber + 1}` : ''}`;
    fn.set(name, (fn.get(name) ?? 0) + t);
    pkg.set(packageOf(url), (pkg.get(packageOf(url)) ?? 0) + t);
  }
  const pct = (t: number) => `${((100 * t) / busy).toFixed(1).padStart(5)} %`;
  const sorted = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, t]) => `${pct(t)}  ${k}`);
  return {
    functions: [`busy ${(busy / 1e3).toFixed(0)} ms of ${(total / 1e3).toFixed(0)} ms sampled`, ...sorted(fn)],
    packages: sorted(pkg),
  };
}

if (process.argv[1]?.endsWith('profile-summary.ts')) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: profile-summary.ts FILE.cpuprofile [TOP]');
  const result = summarise(
    JSON.parse(fs.readFileSync(file, 'utf8')) as Profile,
    Number(process.argv[3] ?? 25),
    Number(process.argv[4] ?? 0),
  );
  console.log('Self time by function (% of busy samples):');
  for (const line of result.functions) console.log(`  ${line}`);
  console.log('Self time by package:');
  for (const line of result.packages) console.log(`  ${line}`);
}
