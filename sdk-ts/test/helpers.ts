/**
 * Test helpers: a real local HTTP server (node:http on 127.0.0.1:0) that answers from a script of responses and
 * records every request it receives. Nothing is mocked: the SDK talks to it over TCP with the global fetch.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the scripted server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the scripted server answers: a status, headers and a JSON body, or `hang` to never answer. */
export type ScriptedResponse =
  | { status: number; headers?: Record<string, string>; body?: unknown }
  | { hang: true };

/** A running scripted server. */
export interface ScriptedServer {
  baseUrl: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/**
 * Starts a server that answers the n-th request with `script[n]` (the last entry repeats).
 * JSON bodies are sent as `application/problem+json` for statuses ≥ 400, else `application/json`.
 */
export async function startScriptedServer(script: ScriptedResponse[]): Promise<ScriptedServer> {
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = requests.length;
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const step = script[Math.min(n, script.length - 1)];
      if (!step || 'hang' in step) return; // never answers; closed by close()
      const body = step.body === undefined ? '' : JSON.stringify(step.body);
      res.writeHead(step.status, {
        'x-request-id': `req-${n + 1}`,
        ...(body
          ? { 'content-type': step.status >= 400 ? 'application/problem+json' : 'application/json' }
          : {}),
        ...step.headers,
      });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then closed). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A Problem body as the Meridian server sends it. */
export function problem(status: number, code: string, detail = code) {
  return {
    type: `https://meridian.example/problems/${code}`,
    title: code,
    status,
    detail,
    code,
    requestId: `problem-${status}`,
  };
}

/** Expects `promise` to reject with an instance of `Class` and returns the error. */
export async function rejection<E extends Error>(
  promise: Promise<unknown>,
  Class: abstract new (...args: never[]) => E,
): Promise<E> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Class) return error;
    throw new Error(`expected ${Class.name}, got ${String(error)}`, { cause: error });
  }
  throw new Error(`expected ${Class.name}, but the call succeeded`);
}
