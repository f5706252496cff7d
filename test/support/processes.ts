/**
 * Real server processes for the crash, entry-point and multi-process tests: `server/main.ts` (the API, optionally
 * with its in-process worker) and `server/worker.ts` (`npm run worker`), started with `process.execPath` and their
 * own environment (docs/toolchain.md, "Shell scripts": never through npm, so signals reach them) and stopped by
 * their own pid.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** A started process: its handle, everything it printed so far, and the match of its readiness pattern. */
export interface Started {
  child: ChildProcess;
  output: () => string;
  match: RegExpExecArray;
}

/**
 * Starts `script` (relative to the repository root) with NODE_ENV=test plus `env`, and resolves once `ready`
 * matches its output. @throws Error with the output when it exits first or is not ready within `timeoutMs`.
 */
export function startEntryPoint(
  script: string,
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  timeoutMs = 60_000,
): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    // Receivers listen on 127.0.0.1: private webhook targets are allowed explicitly.
    env: { ...process.env, NODE_ENV: 'test', MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} did not start in ${timeoutMs / 1000} s:\n${out}`)),
      timeoutMs,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = ready.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, output: () => out, match });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}:\n${out}`));
    });
  });
}

/** Starts the API (`server/main.ts`, PORT=0); resolves with its `/v1` base URL once it listens. */
export async function startApi(
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000,
): Promise<{ child: ChildProcess; baseUrl: string; output: () => string }> {
  const { child, match, output } = await startEntryPoint(
    'server/main.ts',
    { PORT: '0', ...env },
    /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/,
    timeoutMs,
  );
  return { child, baseUrl: match[1] as string, output };
}

/** Starts a worker (`server/worker.ts`); resolves once it runs jobs. */
export async function startWorker(env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<ChildProcess> {
  return (await startEntryPoint('server/worker.ts', env, /running jobs/, timeoutMs)).child;
}

/**
 * Sends `signal` to a child it started and waits for it to exit; with `killAfterMs`, sends SIGKILL when it has not
 * exited by then.
 */
export async function stopProcess(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGTERM',
  killAfterMs?: number,
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.removeAllListeners('exit');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  await exited;
  clearTimeout(timer);
}
