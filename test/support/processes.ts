/**
 * Real server processes for the crash and multi-worker tests: `server/main.ts` (the API, optionally with its
 * in-process worker) and `server/worker.ts` (`npm run worker`), started with their own environment and stopped by
 * their own pid.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

function start(
  script: string,
  env: NodeJS.ProcessEnv,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    // Receivers listen on 127.0.0.1: private webhook targets are allowed explicitly.
    env: { ...process.env, NODE_ENV: 'test', PORT: '0', MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start in 60 s:\n${out}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = ready.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match });
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

/** Starts the API (`server/main.ts`); resolves with its `/v1` base URL once it listens. */
export async function startApi(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; baseUrl: string }> {
  const { child, match } = await start('server/main.ts', env, /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/);
  return { child, baseUrl: match[1] as string };
}

/** Starts a worker (`server/worker.ts`); resolves once it runs jobs. */
export async function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  return (await start('server/worker.ts', env, /running jobs/)).child;
}

/** Sends `signal` to a child it started and waits for it to exit. */
export function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  child.removeAllListeners('exit');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  return exited;
}
