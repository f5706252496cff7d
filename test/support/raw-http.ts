/**
 * HTTP below the fetch API, for what a well-behaved client never sends: raw requests over one socket, and their
 * answers read back as text.
 */
import net from 'node:net';

/**
 * Sends raw requests to the server over one connection, each after the answer to the one before has begun, and
 * reads everything it answers until it closes the connection. Returns the first answer's status, its head and
 * everything after it.
 */
export async function rawExchange(
  baseUrl: string,
  ...requests: string[]
): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  const text = await new Promise<string>((resolve, reject) => {
    const pending = [...requests];
    const socket = net.connect(Number(port), hostname, () => {
      const next = pending.shift() ?? '';
      if (pending.length === 0) socket.end(next);
      else socket.write(next);
    });
    let out = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      out += chunk;
      const next = pending.shift();
      if (next !== undefined) {
        if (pending.length === 0) socket.end(next);
        else socket.write(next);
      }
    });
    socket.on('close', () => resolve(out));
    socket.on('error', (err: NodeJS.ErrnoException) => (out ? resolve(out) : reject(err)));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer in 10 s')));
  });
  const at = text.indexOf('\r\n\r\n');
  const head = at < 0 ? text : text.slice(0, at);
  const body = at < 0 ? '' : text.slice(at + 4);
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head, body };
}

/** The value of header `name` in a raw response head, trimmed; undefined when absent. */
export function headerOf(head: string, name: string): string | undefined {
  return new RegExp(`^${name}: *(.*)$`, 'im').exec(head)?.[1]?.trim();
}
