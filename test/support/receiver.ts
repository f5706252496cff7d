/**
 * A real webhook receiver for the delivery tests: an HTTP server on 127.0.0.1 that records every request (raw
 * body and headers) and answers what the test scripts, optionally after a delay.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request as the receiver got it. */
export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** `performance.timeOrigin + performance.now()` at receipt, in ms. */
  at: number;
}

/** What to answer to the n-th request (0-based): a status, headers, a delay, a body (default `ok`). */
export type Responder = (
  n: number,
  req: Received,
) => { status: number; headers?: Record<string, string>; delayMs?: number; body?: string | Buffer };

/** A running receiver. */
export class Receiver {
  readonly received: Received[] = [];
  respond: Responder;
  #server: http.Server;
  #waiters: { count: number; resolve: () => void }[] = [];

  private constructor(server: http.Server, respond: Responder) {
    this.#server = server;
    this.respond = respond;
  }

  /** Starts a receiver on 127.0.0.1 port 0 (default answer: 200). */
  static async start(respond: Responder = () => ({ status: 200 })): Promise<Receiver> {
    const server = http.createServer();
    const receiver = new Receiver(server, respond);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
        const got: Received = {
          path: req.url ?? '/',
          headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: performance.timeOrigin + performance.now(),
        };
        const n = receiver.received.length;
        receiver.received.push(got);
        const answer = receiver.respond(n, got);
        const send = () => {
          if (res.destroyed) return;
          res.writeHead(answer.status, answer.headers ?? {});
          res.end(answer.body ?? 'ok');
        };
        if (answer.delayMs) setTimeout(send, answer.delayMs);
        else send();
        receiver.#notify();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  /** `http://127.0.0.1:<port><path>` (or with another host name, e.g. `localhost`). */
  url(path = '/hook', host = '127.0.0.1'): string {
    return `http://${host}:${(this.#server.address() as AddressInfo).port}${path}`;
  }

  #notify(): void {
    this.#waiters = this.#waiters.filter((w) => {
      if (this.received.length >= w.count) w.resolve();
      return this.received.length < w.count;
    });
  }

  /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs = 10_000): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`receiver got ${this.received.length} of ${count} requests in ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.#waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/**
 * Verifies a delivery with the reference `standardwebhooks` library (signature and 5-minute timestamp tolerance
 * against the wall clock); returns the parsed payload. Throws WebhookVerificationError when it does not verify.
 */
export function verify(secret: string, got: Received): Record<string, any> {
  return new Webhook(secret).verify(got.body, got.headers) as Record<string, any>;
}

/** The `v1,…` signature the library computes for a delivery with `secret` (no timestamp tolerance check). */
export function librarySignature(secret: string, got: Received): string {
  const timestamp = new Date(Number(got.headers['webhook-timestamp']) * 1000);
  return new Webhook(secret).sign(got.headers['webhook-id'] as string, timestamp, got.body);
}
