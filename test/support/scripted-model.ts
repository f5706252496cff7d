/**
 * Test support (docs/agents.md, Bring your own model), not product code: an OpenAI-compatible chat-completions
 * server on 127.0.0.1 that replays scripted completions, so the provider code under test (the AI SDK's own) talks
 * real HTTP to something. No model can be downloaded on our machines; this is never a model's quality.
 *
 * Each request to `POST /v1/chat/completions` takes the next script from the queue (or the default one), which may
 * read the request (to copy ids from the prompt, as a model would) and answers: a JSON object as the assistant's
 * message content, raw content (malformed JSON), an HTTP status (429, 500…), after an optional delay.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the scripted model answers to one request. */
export interface Scripted {
  /** The assistant message's content as an object (sent as its JSON text). */
  json?: unknown;
  /** The assistant message's content as it is (e.g. malformed JSON). */
  content?: string;
  /** An HTTP error status instead of a completion (429, 500, 503…). */
  status?: number;
  /** Wait this long before answering, in ms. */
  delayMs?: number;
}

/** A request the server received. */
export interface ReceivedRequest {
  authorization: string | undefined;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    response_format?: unknown;
    max_tokens?: number;
  };
  /** Every message's content, joined (the prompt as the model saw it). */
  prompt: string;
}

type Script = Scripted | ((request: ReceivedRequest) => Scripted);

/** A running scripted server. */
export interface ScriptedModel {
  /** `http://127.0.0.1:<port>/v1`: what `MERIDIAN_LLM_BASE_URL` is set to. */
  baseUrl: string;
  /** Every request received, in order. */
  requests: ReceivedRequest[];
  /** What scripts threw (each answered 599). */
  errors: unknown[];
  /** Queues answers for the next requests (first in, first out). */
  push(...scripts: Script[]): void;
  /** The answer when the queue is empty (default: 500). */
  setDefault(script: Script): void;
  close(): Promise<void>;
}

/** The values of a prompt's `<data>` block: one JSON document, or one JSON value a line. */
export function dataInPrompt(prompt: string): unknown[] {
  const block = /<data>\n([\s\S]*?)\n<\/data>/.exec(prompt)?.[1] ?? '';
  try {
    return [JSON.parse(block)];
  } catch {
    return block.split('\n').map((line) => JSON.parse(line) as unknown);
  }
}

/** The records of a prompt's data: every object with a number `n`, with its name or title. */
export function recordsInPrompt(prompt: string): { n: number; name: string; [field: string]: unknown }[] {
  const out: { n: number; name: string }[] = [];
  const visit = (v: unknown) => {
    if (Array.isArray(v)) for (const x of v) visit(x);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.n === 'number') out.push({ ...o, n: o.n, name: String(o.name ?? o.title ?? '') });
      for (const x of Object.values(o)) visit(x);
    }
  };
  for (const value of dataInPrompt(prompt)) visit(value);
  return out;
}

/** The number `n` the prompt gives the record named (or titled) `name`; throws when it is not in the prompt. */
export function numberOf(prompt: string, name: string): number {
  const found = recordsInPrompt(prompt).find((r) => r.name === name);
  if (!found) throw new Error(`no record named ${name} in the prompt`);
  return found.n;
}

/** Starts the scripted server on 127.0.0.1 (a free port). */
export async function startScriptedModel(): Promise<ScriptedModel> {
  const queue: Script[] = [];
  let fallback: Script = { status: 500 };
  const requests: ReceivedRequest[] = [];
  const errors: unknown[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedRequest['body'];
    const received: ReceivedRequest = {
      authorization: req.headers.authorization,
      body,
      prompt: body.messages.map((m) => m.content).join('\n'),
    };
    requests.push(received);
    const script = queue.shift() ?? fallback;
    let answer: Scripted;
    try {
      answer = typeof script === 'function' ? script(received) : script;
    } catch (error) {
      // A script that throws (an assertion on the prompt) answers 599 with its message, for the test to see.
      answer = { status: 599 };
      errors.push(error);
    }
    const send = () => {
      if (res.destroyed) return;
      if (answer.status && answer.status >= 300) {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `scripted ${answer.status}`, type: 'scripted' } }));
        return;
      }
      const content = answer.content ?? JSON.stringify(answer.json ?? {});
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    };
    if (answer.delayMs) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, answer.delayMs);
      timers.add(timer);
    } else send();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    errors,
    push: (...scripts) => queue.push(...scripts),
    setDefault: (script) => {
      fallback = script;
    },
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
