/**
 * A real SMTP server for the invitation tests (`smtp-server` on 127.0.0.1, port 0): it accepts every message
 * without authentication or TLS and keeps each one parsed (`mailparser`), so a test reads the link from the message
 * the server received, exactly as a person would. Given a directory, it also writes each message there as JSON
 * (`<n>.json`: envelope, subject, text), so another process (the console's end-to-end tests) can read them.
 */
import { renameSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message as the server received it. */
export interface ReceivedMail {
  /** Envelope sender and recipients (what the SMTP dialogue said, not the headers). */
  from: string;
  to: string[];
  parsed: ParsedMail;
}

/** A running SMTP server that collects what it receives. */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  readonly #server: SMTPServer;
  #port = 0;
  #waiters: { count: number; resolve: () => void }[] = [];

  private constructor(saveDir?: string) {
    this.#server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((parsed) => {
            const mail = {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              parsed,
            };
            this.received.push(mail);
            if (saveDir) {
              const saved = { from: mail.from, to: mail.to, subject: parsed.subject, text: parsed.text };
              // Written aside, then renamed: a reader never sees half a message.
              const file = path.join(saveDir, `${this.received.length}.json`);
              writeFileSync(`${file}.part`, JSON.stringify(saved));
              renameSync(`${file}.part`, file);
            }
            this.#wake();
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
  }

  /** Starts a server on 127.0.0.1 and a free port; `saveDir` (an existing directory) also gets each message. */
  static async start(saveDir?: string): Promise<SmtpSink> {
    const sink = new SmtpSink(saveDir);
    await new Promise<void>((resolve, reject) => {
      sink.#server.once('error', reject);
      sink.#server.listen(0, '127.0.0.1', () => resolve());
    });
    sink.#port = (sink.#server.server.address() as AddressInfo).port;
    return sink;
  }

  /** The `MERIDIAN_SMTP_URL` that reaches this server (plain SMTP, no credentials). */
  get url(): string {
    return `smtp://127.0.0.1:${this.#port}`;
  }

  /** Resolves once `count` messages have arrived, or rejects after `timeoutMs`. */
  async waitFor(count: number, timeoutMs = 5_000): Promise<ReceivedMail[]> {
    if (this.received.length < count) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(`SMTP sink: ${this.received.length} of ${count} messages after ${timeoutMs} ms`),
            ),
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
    return this.received.slice(0, count);
  }

  #wake(): void {
    const ready = this.#waiters.filter((w) => this.received.length >= w.count);
    this.#waiters = this.#waiters.filter((w) => this.received.length < w.count);
    for (const w of ready) w.resolve();
  }

  /** Stops the server. */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
