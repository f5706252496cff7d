/**
 * Outgoing mail (docs/members.md, "Mail"): one nodemailer SMTP transport per app, built from `MERIDIAN_SMTP_URL`.
 * Without it the mailer is off and {@link Mailer.send} reports so; Meridian never queues mail of its own.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { MailConfig } from '../../config.js';

/** A plain-text message to one recipient. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** How long one message may take to reach the SMTP server, in ms (connection, greeting and the dialogue). */
const SEND_TIMEOUT_MS = 10_000;

/** Sends mail through the configured SMTP server, or does nothing when none is configured. */
export class Mailer {
  readonly #transport: Transporter | null;
  readonly #from: string;
  readonly #logger: Logger | undefined;

  /** @param config null when `MERIDIAN_SMTP_URL` is unset (the mailer is then off). */
  constructor(config: MailConfig | null, logger?: Logger) {
    this.#from = config?.from ?? '';
    this.#logger = logger;
    this.#transport = config
      ? nodemailer.createTransport({
          url: config.smtpUrl,
          connectionTimeout: SEND_TIMEOUT_MS,
          greetingTimeout: SEND_TIMEOUT_MS,
          socketTimeout: SEND_TIMEOUT_MS,
        })
      : null;
  }

  /** Whether an SMTP server is configured. */
  get enabled(): boolean {
    return this.#transport !== null;
  }

  /**
   * Sends one message. Returns true when the SMTP server accepted it; false when no server is configured or it
   * refused or could not be reached (logged without the message body, which may hold a one-time link).
   */
  async send(message: MailMessage): Promise<boolean> {
    if (!this.#transport) return false;
    try {
      await this.#transport.sendMail({
        from: this.#from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
      return true;
    } catch (error) {
      this.#logger?.warn(
        { err: { message: (error as Error).message }, subject: message.subject },
        'mail not sent',
      );
      return false;
    }
  }

  /** Closes the transport's connections (an app shutting down). */
  close(): void {
    this.#transport?.close();
  }
}
