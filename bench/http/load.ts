/**
 * The HTTP benchmark's measurements: one recorded answer per subject (the bytes both servers must send), autocannon
 * runs against a port, and their summary.
 */
import path from 'node:path';
import autocannon from 'autocannon';
import { idOf } from '../seed-large.js';
import { type Options } from './options.js';
import { cpuMicros, type Running } from './processes.js';
import type { Subject } from './subjects.js';

export interface Recorded {
  method: string;
  pattern: string;
  key: string;
  status: number;
  headers: [string, string][];
  body: string;
}

export const SKIP_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

export async function record(port: number, subject: Subject): Promise<Recorded> {
  const res = await fetch(`http://127.0.0.1:${port}${subject.path}`, {
    method: subject.method,
    headers: {
      authorization: `Bearer ${subject.key}`,
      ...(subject.body ? { 'content-type': 'application/json' } : {}),
    },
    ...(subject.body ? { body: JSON.stringify(subject.body(0)) } : {}),
  });
  const body = await res.text();
  if (res.status >= 300) throw new Error(`${subject.title} answered ${res.status}: ${body.slice(0, 300)}`);
  const headers: [string, string][] = [];
  res.headers.forEach((value, name) => {
    if (!SKIP_HEADERS.has(name)) headers.push([name, value]);
  });
  return {
    method: subject.method,
    pattern: subject.pattern,
    key: `${subject.method} ${subject.path} Bearer ${subject.key}`,
    status: res.status,
    headers,
    body,
  };
}

export interface Sample {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  cpuMicros: number;
  non2xx: number;
  errors: number;
}

/** One autocannon run against `port`; `versions` tracks the If-Match of rotating PATCHes across runs. */
export async function load(
  port: number,
  pid: number,
  subject: Subject,
  options: Options,
  seconds: number,
  versions: Map<string, number>,
  counter: { n: number },
): Promise<Sample> {
  const headers: Record<string, string> = { authorization: `Bearer ${subject.key}` };
  if (subject.body) headers['content-type'] = 'application/json';
  type Ctx = { id?: string };
  const request: autocannon.Request = {
    method: subject.method,
    path: subject.path,
    headers,
    ...(subject.body
      ? {
          setupRequest: (req: autocannon.Request, ctx: object) => {
            const context = ctx as Ctx;
            const n = ++counter.n;
            if (!subject.rotating) return { ...req, body: JSON.stringify(subject.body?.(n)) };
            // A different project of the large tenant per request, at the version it is at, so every
            // If-Match holds (a real conditional write, not a 412).
            const id = idOf(5, n % 90_000);
            context.id = id;
            const version = versions.get(id) ?? 1;
            return {
              ...req,
              path: `/v1/projects/${id}`,
              headers: { ...headers, 'if-match': `"${version}"` },
              body: JSON.stringify(subject.body?.(n)),
            };
          },
        }
      : {}),
    ...(subject.rotating
      ? {
          onResponse: (status: number, _body: string, context: object, resHeaders?: Record<string, unknown>) => {
            const id = (context as Ctx).id;
            const etag = resHeaders?.etag ?? resHeaders?.ETag;
            if (id && status === 200 && typeof etag === 'string') versions.set(id, Number(etag.replaceAll('"', '')));
          },
        }
      : {}),
  };
  const before = cpuMicros(pid);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: options.connections,
    duration: seconds,
    requests: [request],
  });
  const cpu = cpuMicros(pid) - before;
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMicros: cpu,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export interface Summary {
  reqPerSec: number;
  p50: number;
  p99: number;
  cpuMicrosPerRequest: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export function summarise(samples: Sample[]): Summary {
  const requests = samples.reduce((s, x) => s + x.requests, 0);
  const seconds = samples.reduce((s, x) => s + x.seconds, 0);
  const cpu = samples.reduce((s, x) => s + x.cpuMicros, 0);
  return {
    reqPerSec: Math.round(requests / seconds),
    p50: median(samples.map((s) => s.p50)),
    p99: median(samples.map((s) => s.p99)),
    cpuMicrosPerRequest: Math.round(cpu / Math.max(1, requests)),
    requests,
    non2xx: samples.reduce((s, x) => s + x.non2xx, 0),
    errors: samples.reduce((s, x) => s + x.errors, 0),
  };
}
