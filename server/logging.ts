/**
 * The process's logger: pino, one JSON line per request (pino-http) and per event worth telling.
 *
 * Lines go to stdout through pino's asynchronous destination (docs/design.md, "The request pipeline": a synchronous
 * write per request blocks the event loop, 4 % of GET /projects/{id} in bench/results/profiles.md): a line is handed
 * to an asynchronous write at once, and lines that arrive while a write is in flight are gathered into the next one,
 * so under load lines go out in batches and a quiet server's line is not held back. What is left is flushed when the
 * process exits (pino registers the exit flush itself) and on shutdown (`npm start` calls `flush`).
 */
import { type Logger, pino } from 'pino';

/** A pino logger at `level`, its lines tagged with `service`; `silent` writes nothing and opens no destination. */
export function createLogger(level: string, service = 'meridian'): Logger {
  const options = { level, base: { service } };
  if (level === 'silent') return pino(options);
  return pino(options, pino.destination({ dest: 1, sync: false }));
}
