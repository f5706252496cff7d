/**
 * Retries, backoff, Retry-After, the idempotency key, timeouts, connection errors and executions.poll, each against
 * a real local HTTP server (node:http on 127.0.0.1:0) that answers from a script; no fetch is mocked.
 */
import { expect } from 'chai';
import {
  APIConnectionError,
  APIUserAbortError,
  InternalServerError,
  Meridian,
  RateLimitError,
  retryDelayMs,
  TimeoutError,
  VERSION,
} from '../src/index.js';
import { closedPort, problem, rejection, type ScriptedServer, startScriptedServer } from './helpers.js';

const project = {
  id: '0195113c-8a2e-7f41-b6d3-2c9e4a7b1f10',
  name: 'Retried',
  status: 'PLANNED',
  startDate: '2025-01-06',
  endDate: '2025-02-06',
};
const execution = (status: string) => ({
  executionId: '0195113c-8a2e-7f41-b6d3-2c9e4a7b1f11',
  agentId: 'risk-assessment',
  status,
});

describe('sdk-ts transport (real local HTTP servers)', () => {
  let scripted: ScriptedServer | undefined;
  afterEach(async () => {
    await scripted?.close();
    scripted = undefined;
  });
  const clientFor = (s: ScriptedServer, options: ConstructorParameters<typeof Meridian>[0] = {}) =>
    new Meridian({ apiKey: 'mk_live_test', baseUrl: s.baseUrl, ...options });

  it('retries a GET after 503 and succeeds, with the requestId of the final response', async () => {
    scripted = await startScriptedServer([
      { status: 503, headers: { 'retry-after': '0' }, body: problem(503, 'service_unavailable') },
      { status: 200, body: project },
    ]);
    const result = await clientFor(scripted).projects.retrieve(project.id).withResponse();
    expect(result.data.name).to.equal('Retried');
    expect(result.requestId).to.equal('req-2');
    expect(scripted.requests).to.have.length(2);
  });

  it('POST answered 503, 503, 201: one Idempotency-Key, generated once, on every attempt; body intact', async () => {
    scripted = await startScriptedServer([
      { status: 503, headers: { 'retry-after': '0' }, body: problem(503, 'service_unavailable') },
      { status: 503, headers: { 'retry-after': '0' }, body: problem(503, 'service_unavailable') },
      { status: 201, body: project },
    ]);
    const body = { name: 'Retried', startDate: '2025-01-06', endDate: '2025-02-06' };
    const result = await clientFor(scripted).projects.create(body).withResponse();
    expect(result.response.status).to.equal(201);
    const keys = scripted.requests.map((r) => r.headers['idempotency-key']);
    expect(keys).to.have.length(3);
    expect(keys[0]).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys).size).to.equal(1);
    for (const r of scripted.requests) {
      expect(JSON.parse(r.body)).to.deep.equal(body);
      expect(r.headers['content-type']).to.equal('application/json');
      expect(r.headers.authorization).to.equal('Bearer mk_live_test');
    }
  });

  it('keeps a caller-given Idempotency-Key across retries, and a new call gets a new key', async () => {
    scripted = await startScriptedServer([
      { status: 503, headers: { 'retry-after': '0' } },
      { status: 201, body: project },
    ]);
    const client = clientFor(scripted);
    const body = { name: 'Retried', startDate: '2025-01-06', endDate: '2025-02-06' };
    await client.projects.create(body, { headers: { 'Idempotency-Key': 'my-key-1' } });
    await client.projects.create(body);
    await client.projects.create(body);
    const keys = scripted.requests.map((r) => r.headers['idempotency-key']);
    expect(keys.slice(0, 2)).to.deep.equal(['my-key-1', 'my-key-1']);
    expect(keys[2]).to.not.equal(keys[3]);
  });

  it('sends no Idempotency-Key on GET or PATCH, and names the SDK version in User-Agent and X-Meridian-Client', async () => {
    scripted = await startScriptedServer([{ status: 200, body: project }]);
    const client = clientFor(scripted);
    await client.projects.retrieve(project.id);
    await client.projects.update(project.id, { progress: 5 });
    for (const r of scripted.requests) {
      expect(r.headers['idempotency-key']).to.equal(undefined);
      expect(r.headers['x-meridian-client']).to.equal(`meridian-sdk-ts/${VERSION}`);
      expect(r.headers['user-agent']).to.match(
        new RegExp(`^meridian-sdk-ts/${VERSION.replaceAll('.', '\\.')} node/\\d+\\.\\d+\\.\\d+ \\(`),
      );
    }
  });

  it('honours Retry-After in seconds on 429, then succeeds', async () => {
    scripted = await startScriptedServer([
      { status: 429, headers: { 'retry-after': '1' }, body: problem(429, 'rate_limited') },
      { status: 200, body: project },
    ]);
    await clientFor(scripted).projects.retrieve(project.id);
    const [first, second] = scripted.requests;
    expect(second!.at - first!.at).to.be.within(950, 1900);
  });

  it('honours Retry-After as an HTTP date', async () => {
    scripted = await startScriptedServer([
      { status: 503, headers: { 'retry-after': new Date(Date.now() + 2000).toUTCString() } },
      { status: 200, body: project },
    ]);
    await clientFor(scripted).projects.retrieve(project.id);
    const [first, second] = scripted.requests;
    // HTTP dates have 1 s resolution: the wait is between ~1 and 2 s.
    expect(second!.at - first!.at).to.be.within(900, 2100);
  });

  it('throws RateLimitError once retries are spent, after 1 + maxRetries attempts', async () => {
    scripted = await startScriptedServer([
      { status: 429, headers: { 'retry-after': '0' }, body: problem(429, 'rate_limited') },
    ]);
    const error = await rejection(clientFor(scripted, { maxRetries: 3 }).me.retrieve(), RateLimitError);
    expect(scripted.requests).to.have.length(4);
    expect(error.code).to.equal('rate_limited');
    expect(error.requestId).to.equal('req-4');
  });

  it('throws InternalServerError for a 500 with the Problem fields (maxRetries 1: two attempts)', async () => {
    scripted = await startScriptedServer([
      {
        status: 500,
        headers: { 'retry-after': '0' },
        body: problem(500, 'internal_error', 'Something broke.'),
      },
    ]);
    const error = await rejection(
      clientFor(scripted, { maxRetries: 1 }).tenant.retrieve(),
      InternalServerError,
    );
    expect(scripted.requests).to.have.length(2);
    expect(error.status).to.equal(500);
    expect(error.code).to.equal('internal_error');
    expect(error.detail).to.equal('Something broke.');
    expect(error.requestId).to.equal('req-2');
    expect(error.problem?.requestId).to.equal('problem-500');
  });

  it('maps a non-JSON 502 body to InternalServerError too', async () => {
    scripted = await startScriptedServer([
      { status: 502, headers: { 'content-type': 'text/plain' }, body: 'bad gateway' },
    ]);
    const error = await rejection(
      clientFor(scripted, { maxRetries: 0 }).tenant.retrieve(),
      InternalServerError,
    );
    expect(error.status).to.equal(502);
    expect(error.code).to.equal(undefined);
  });

  it('uses exponential backoff (0.5 s, 1 s) when there is no Retry-After', async () => {
    scripted = await startScriptedServer([{ status: 503 }, { status: 503 }, { status: 200, body: project }]);
    await clientFor(scripted).projects.retrieve(project.id);
    const [a, b, c] = scripted.requests.map((r) => r.at);
    expect(b! - a!).to.be.within(350, 800); // 0.5 s minus up to 25 % jitter
    expect(c! - b!).to.be.within(700, 1300); // 1 s minus up to 25 % jitter
  });

  it('computes backoff 0.5 s × 2^n capped at 8 s, and ignores Retry-After above 60 s', () => {
    for (let n = 0; n < 8; n++) {
      const expected = Math.min(500 * 2 ** n, 8000);
      const d = retryDelayMs(n);
      expect(d).to.be.within(expected * 0.75, expected);
    }
    expect(retryDelayMs(0, new Headers({ 'retry-after': '30' }))).to.equal(30_000);
    expect(retryDelayMs(0, new Headers({ 'retry-after': '120' }))).to.be.at.most(500);
    expect(retryDelayMs(0, new Headers({ 'retry-after-ms': '250' }))).to.equal(250);
  });

  it('throws TimeoutError when the server does not answer within timeoutMs (and retries timeouts)', async () => {
    scripted = await startScriptedServer([{ hang: true }]);
    const started = Date.now();
    const error = await rejection(
      clientFor(scripted, { timeoutMs: 200, maxRetries: 1 }).projects.retrieve(project.id),
      TimeoutError,
    );
    expect(error).to.be.instanceOf(APIConnectionError);
    expect(error.message).to.match(/timed out after 200 ms/);
    expect(scripted.requests).to.have.length(2);
    expect(Date.now() - started).to.be.within(400, 2000);
  });

  it('applies a per-request timeoutMs override', async () => {
    scripted = await startScriptedServer([{ hang: true }]);
    await rejection(
      clientFor(scripted, { maxRetries: 0 }).projects.retrieve(project.id, { timeoutMs: 100 }),
      TimeoutError,
    );
  });

  it('throws APIConnectionError for a closed port, after retrying', async () => {
    const port = await closedPort();
    let attempts = 0;
    const client = new Meridian({
      apiKey: 'mk_live_test',
      baseUrl: `http://127.0.0.1:${port}/v1`,
      maxRetries: 1,
      fetch: (input, init) => {
        attempts++;
        return fetch(input, init);
      },
    });
    const error = await rejection(client.me.retrieve(), APIConnectionError);
    expect(error).to.not.be.instanceOf(TimeoutError);
    expect(error.status).to.equal(undefined);
    expect(error.requestId).to.equal(null);
    expect(attempts).to.equal(2);
  });

  it('rejects with APIUserAbortError when the caller aborts, without retrying', async () => {
    scripted = await startScriptedServer([{ hang: true }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await rejection(
      clientFor(scripted).projects.retrieve(project.id, { signal: controller.signal }),
      APIUserAbortError,
    );
    expect(scripted.requests).to.have.length(1);
  });

  describe('agents.executions.poll', () => {
    it('polls PENDING, RUNNING, COMPLETED and returns the completed execution', async () => {
      scripted = await startScriptedServer([
        { status: 200, body: execution('PENDING') },
        { status: 200, body: execution('RUNNING') },
        { status: 200, body: execution('COMPLETED') },
      ]);
      const done = await clientFor(scripted).agents.executions.poll(execution('').executionId, {
        pollIntervalMs: 50,
      });
      expect(done.status).to.equal('COMPLETED');
      expect(scripted.requests.map((r) => r.url)).to.deep.equal(
        Array(3).fill(`/v1/agents/executions/${execution('').executionId}`),
      );
      const gaps = scripted.requests.slice(1).map((r, i) => r.at - scripted!.requests[i]!.at);
      for (const gap of gaps) expect(gap).to.be.at.least(45);
    });

    it('returns a FAILED execution instead of throwing', async () => {
      scripted = await startScriptedServer([
        { status: 200, body: execution('RUNNING') },
        { status: 200, body: execution('FAILED') },
      ]);
      const done = await clientFor(scripted).agents.executions.poll(execution('').executionId, {
        pollIntervalMs: 10,
      });
      expect(done.status).to.equal('FAILED');
    });

    it('throws TimeoutError when the execution is still running after timeoutMs', async () => {
      scripted = await startScriptedServer([{ status: 200, body: execution('RUNNING') }]);
      const error = await rejection(
        clientFor(scripted).agents.executions.poll(execution('').executionId, {
          pollIntervalMs: 40,
          timeoutMs: 150,
        }),
        TimeoutError,
      );
      expect(error.message).to.match(/still RUNNING after 150 ms/);
      expect(scripted.requests.length).to.be.within(3, 6);
    });
  });
});
