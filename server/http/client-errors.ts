/**
 * Requests Node's HTTP parser refuses before Express sees them: a request line and headers over Node's 16 KiB limit
 * (a 100 KB query string), an invalid character (a NUL in a header value), a request not received in time. Node's
 * own answer is a bare status line with an empty body; this one is the problem+json every other error gets
 * (problem.ts builds it), with a request id, `Cache-Control: no-store` and `Connection: close`. Node's
 * `maxHeaderSize` stays at its default (16 KiB); the spec says so.
 */
import { randomUUID } from 'node:crypto';
import { type Server, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { httpParserProblem, problemDocument } from './problem.js';

/** The response in progress on a connection, as Node's HTTP server tracks it (`socket._httpMessage`). */
type HttpSocket = Socket & { _httpMessage?: { headersSent?: boolean } | null };

/**
 * Installs the `clientError` listener on `server`. As Node's default listener does, it answers unless the peer is
 * gone or a response on this connection has already started (another status line would corrupt it; then the
 * connection can only be closed), so a keep-alive connection's next request is answered too; and it closes the
 * connection after the answer: the parser cannot read on from where it failed.
 */
export function answerClientErrors(server: Server, logger: Logger): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: HttpSocket) => {
    if (err.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const requestId = `req_${randomUUID()}`;
    const problem = httpParserProblem(err.code);
    const body = JSON.stringify(problemDocument(problem, requestId));
    socket.end(
      [
        `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ''}`,
        'Content-Type: application/problem+json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `X-Request-Id: ${requestId}`,
        'Cache-Control: no-store',
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
    logger.info(
      { requestId, parserError: err.code, status: problem.status },
      'request refused by the HTTP parser',
    );
  });
}
