/**
 * What the SDK needs from the platform, found without importing any Node module, so that the package runs unchanged
 * in Node.js 20+, Deno, Bun and browsers (bundled): the environment variables, the runtime's name for `User-Agent`,
 * and random UUIDs.
 */
import { VERSION } from '../generated/version.js';

interface ProcessLike {
  env?: Record<string, string | undefined>;
  versions?: Record<string, string | undefined>;
  platform?: string;
  arch?: string;
}

const proc = (globalThis as { process?: ProcessLike }).process;

/** An environment variable, or undefined where there is no `process.env` (browsers). */
export function env(name: string): string | undefined {
  return proc?.env?.[name];
}

/**
 * The runtime as `User-Agent` names it: `node/22.12.0 (linux; x64)`, `bun/1.2.0`, `deno/2.1.0`, or `browser` when
 * none of these is found.
 */
export function runtimeName(): string {
  const deno = (globalThis as { Deno?: { version?: { deno?: string } } }).Deno?.version?.deno;
  if (deno) return `deno/${deno}`;
  const versions = proc?.versions ?? {};
  if (versions.bun) return `bun/${versions.bun}`;
  if (versions.node)
    return `node/${versions.node} (${proc?.platform ?? 'unknown'}; ${proc?.arch ?? 'unknown'})`;
  return 'browser';
}

/** The client's name and version, as sent in `X-Meridian-Client` (and first in `User-Agent`). */
export const CLIENT_NAME = `meridian-sdk-ts/${VERSION}`;

/**
 * The headers that name the SDK: `User-Agent: meridian-sdk-ts/<version> <runtime>/<version>` outside browsers (a
 * browser sends its own and does not let a page change it) and `X-Meridian-Client: meridian-sdk-ts/<version>`.
 */
export function clientHeaders(): Record<string, string> {
  const runtime = runtimeName();
  return runtime === 'browser'
    ? { 'X-Meridian-Client': CLIENT_NAME }
    : { 'User-Agent': `${CLIENT_NAME} ${runtime}`, 'X-Meridian-Client': CLIENT_NAME };
}

/** A random (version 4) UUID: `crypto.randomUUID()` where it exists (it needs a secure context in browsers). */
export function uuid(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
