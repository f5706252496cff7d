/**
 * `Meridian`: the client. The resource tree is generated (`src/generated/resources.ts`, from the spec); this file adds
 * what generation cannot know: polling an agent execution to its end (`client.agents.runAndPoll`,
 * `client.agents.executions.poll`) and the webhook helpers beside the webhook endpoint operations
 * (`client.webhooks.unwrap`).
 */
import {
  AgentsExecutionsResource,
  AgentsResource,
  type AgentsRunParams,
  MeridianResources,
  WebhooksResource,
} from '../generated/resources.js';
import type { MeridianOptions } from './core.js';
import { TimeoutError } from './errors.js';
import { sleep } from './transport.js';
import type { OperationData, OperationHeaders, RequestOptions } from './types.js';
import { signWebhook, unwrapWebhook, verifyWebhook } from './webhooks.js';

/** An agent execution as `client.agents.executions.retrieve()` returns it. */
export type AgentExecutionResult = OperationData<'getAgentExecution'>;

/** Options of polling an execution. */
export interface PollOptions {
  /** Delay between polls in milliseconds (default 1000). */
  pollIntervalMs?: number;
  /** Give up after this many milliseconds (default 300000, 5 minutes). */
  timeoutMs?: number;
  /** Stops waiting; the call then rejects with `APIUserAbortError`. */
  signal?: AbortSignal;
}

const TERMINAL = new Set(['COMPLETED', 'FAILED']);

/** `client.agents.executions`, with {@link ExecutionsWithPolling.poll}. */
export class ExecutionsWithPolling extends AgentsExecutionsResource {
  /**
   * Polls `GET /agents/executions/{executionId}` every `pollIntervalMs` until the execution is COMPLETED or FAILED,
   * and returns it (check `status`: a FAILED execution is returned, with its `error`, not thrown).
   *
   * @throws {@link TimeoutError} when it is still PENDING or RUNNING after `timeoutMs`; `NotFoundError` for an
   *   unknown id; the usual errors of `retrieve`.
   */
  async poll(executionId: string, options: PollOptions = {}): Promise<AgentExecutionResult> {
    const intervalMs = options.pollIntervalMs ?? 1000;
    const timeoutMs = options.timeoutMs ?? 300_000;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const execution = await this.retrieve(executionId, options.signal ? { signal: options.signal } : {});
      if (TERMINAL.has(execution.status)) return execution;
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new TimeoutError(`execution ${executionId} still ${execution.status} after ${timeoutMs} ms`);
      }
      await sleep(Math.min(intervalMs, remaining), options.signal);
    }
  }
}

/** `client.agents`, with {@link AgentsWithPolling.runAndPoll}. */
export class AgentsWithPolling extends AgentsResource {
  /** `client.agents.executions`: `list`, `retrieve` and `poll`. */
  override readonly executions: ExecutionsWithPolling = new ExecutionsWithPolling(this._client);

  /**
   * Starts an agent run (`client.agents.run`) and polls the execution until it is COMPLETED or FAILED
   * (`client.agents.executions.poll`).
   *
   * ```ts
   * const execution = await client.agents.runAndPoll({ agentId: 'budget-health' });
   * if (execution.status === 'COMPLETED') console.log(execution.output?.summary);
   * ```
   *
   * @param params - the run's `agentId`, `scope`, `depth`, `asOf`.
   * @param options - the run request's options (headers such as `Idempotency-Key`), and the polling's
   *   `pollIntervalMs` and `timeoutMs`.
   * @throws as `run`, then as `executions.poll`.
   */
  async runAndPoll(
    params: AgentsRunParams,
    options: RequestOptions<OperationHeaders<'runAgent'>> & PollOptions = {},
  ): Promise<AgentExecutionResult> {
    const { pollIntervalMs, timeoutMs, ...request } = options;
    const run = await this.run(params, request);
    return this.executions.poll(run.executionId, {
      ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }
}

/**
 * `client.webhooks`: the webhook endpoint operations and the helpers for the deliveries you receive: `verify`,
 * `unwrap` (verify and parse into the typed event union) and `sign` (for testing a receiver).
 */
export class WebhooksWithHelpers extends WebhooksResource {
  /** Verifies a delivery's signature and timestamp: see {@link verifyWebhook}. */
  readonly verify = verifyWebhook;
  /** Verifies a delivery and returns its typed event: see {@link unwrapWebhook}. */
  readonly unwrap = unwrapWebhook;
  /** Signs a payload as Meridian does: see {@link signWebhook}. */
  readonly sign = signWebhook;
}

/**
 * The Meridian API client: one property per resource of the API, one method per operation.
 *
 * ```ts
 * import { Meridian } from '@meridian/sdk';
 * const client = new Meridian(); // MERIDIAN_API_KEY, MERIDIAN_BASE_URL
 * const project = await client.projects.retrieve(id);
 * for await (const risk of client.risks.list({ severity: 'HIGH' })) console.log(risk.title);
 * const { data, requestId, response } = await client.risks.create({ … }).withResponse();
 * ```
 *
 * Errors are thrown as {@link APIError} subclasses (see `errors.ts`).
 */
export class Meridian extends MeridianResources {
  /** Agents: `list`, `run`, `ask`, `runAndPoll` and `executions` (`list`, `retrieve`, `poll`). */
  override readonly agents: AgentsWithPolling = new AgentsWithPolling(this);
  /** Webhook endpoints and their deliveries, and the helpers `verify`, `unwrap`, `sign`. */
  override readonly webhooks: WebhooksWithHelpers = new WebhooksWithHelpers(this);

  /**
   * @param options - the API key (default env `MERIDIAN_API_KEY`), base URL (default env `MERIDIAN_BASE_URL`, else
   *   `http://localhost:8080/v1`), retries, timeout, `fetch` and default headers.
   * @throws {@link MeridianError} when no API key is given and `MERIDIAN_API_KEY` is unset, or a number option is
   *   negative.
   */
  constructor(options: MeridianOptions = {}) {
    super(options);
  }
}
