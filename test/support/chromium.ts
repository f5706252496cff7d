/**
 * Debian's Chromium for the browser tests (docs/toolchain.md, Browsers): scripts/ensure-chromium.sh installs it with
 * apt-get where absent; a test skips, saying why, only when it cannot be installed. The flags are the ones this
 * machine's closed network needs (no background networking, component updates or sync: Chromium's own calls home
 * would be refused).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Chromium's path, or why there is none. */
export function findChromium(): { path: string } | { reason: string } {
  try {
    const out = execFileSync('bash', [path.join(ROOT, 'scripts', 'ensure-chromium.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { path: out.trim().split('\n').pop() as string };
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    return { reason: (e.stderr ?? e.message).trim() };
  }
}

/** The launch flags of every browser test. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
