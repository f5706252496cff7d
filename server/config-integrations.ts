/**
 * Settings of the outside services Meridian talks to, read from the env by server/config.ts: the SMTP server that
 * mails invitations and the OpenAI-compatible model server of the model mode (docs/agents.md).
 */
import { int } from './config-values.js';

/** How Meridian sends mail (nodemailer's SMTP transport). */
export interface MailConfig {
  /**
   * `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465` (env `MERIDIAN_SMTP_URL`, nodemailer's
   * connection URL). Never logged nor shown.
   */
  smtpUrl: string;
  /** The `From` of every message (env `MERIDIAN_MAIL_FROM`, default `Meridian <no-reply@localhost>`). */
  from: string;
}

/** The SMTP settings, or null when `MERIDIAN_SMTP_URL` is unset. @throws Error when it is not smtp(s)://. */
export function mailOf(env: NodeJS.ProcessEnv): MailConfig | null {
  const smtpUrl = env.MERIDIAN_SMTP_URL?.trim();
  if (!smtpUrl) return null;
  if (!/^smtps?:\/\//.test(smtpUrl)) throw new Error('MERIDIAN_SMTP_URL must start with smtp:// or smtps://');
  return { smtpUrl, from: env.MERIDIAN_MAIL_FROM?.trim() || 'Meridian <no-reply@localhost>' };
}

/** An OpenAI-compatible chat-completions endpoint and how to call it. */
export interface LlmConfig {
  /** Base URL of the OpenAI-compatible API, e.g. `http://127.0.0.1:11434/v1` (env `MERIDIAN_LLM_BASE_URL`). */
  baseUrl: string;
  /** Model name as the server knows it, e.g. `llama3.1:8b` (env `MERIDIAN_LLM_MODEL`). */
  model: string;
  /** Bearer key (env `MERIDIAN_LLM_API_KEY`); null for servers without one. Never logged nor shown. */
  apiKey: string | null;
  /**
   * Longest wait for the model's answer, retries included, in ms (env `MERIDIAN_LLM_TIMEOUT_MS`, default 20000);
   * past it the embedded engine answers.
   */
  timeoutMs: number;
  /** Most tokens the model may write per answer (env `MERIDIAN_LLM_MAX_TOKENS`, default 1024). */
  maxTokens: number;
  /**
   * The model's context window in tokens (env `MERIDIAN_LLM_CONTEXT_TOKENS`, default 8192: an 8k-context model);
   * a prompt plus `maxTokens` stays within it (docs/agents.md, "Bring your own model").
   */
  contextTokens: number;
  /**
   * How the reply's JSON is asked for (env `MERIDIAN_LLM_STRUCTURED_OUTPUT`, default `json_schema`):
   * `json_schema` (`response_format` with the schema), `json_object` (`response_format: json_object`, the schema
   * in the prompt) or `none` (no `response_format`; the JSON is read out of the text and validated).
   */
  structuredOutput: 'json_schema' | 'json_object' | 'none';
  /** Consecutive failures that open the circuit breaker (env `MERIDIAN_LLM_BREAKER_FAILURES`, default 3). */
  breakerFailures: number;
  /** How long an open breaker waits before one probe call, in ms (env `MERIDIAN_LLM_BREAKER_COOLDOWN_MS`, default 30000). */
  breakerCooldownMs: number;
}

const STRUCTURED_OUTPUT = ['json_schema', 'json_object', 'none'] as const;

/**
 * The model server's settings, or null when neither `MERIDIAN_LLM_BASE_URL` nor `MERIDIAN_LLM_MODEL` is set.
 * @throws Error when only one is set, the URL is not http(s), or a number or mode is invalid.
 */
export function llmOf(env: NodeJS.ProcessEnv): LlmConfig | null {
  const baseUrl = env.MERIDIAN_LLM_BASE_URL?.trim();
  const model = env.MERIDIAN_LLM_MODEL?.trim();
  if (!baseUrl && !model) return null;
  if (!baseUrl || !model)
    throw new Error('MERIDIAN_LLM_BASE_URL and MERIDIAN_LLM_MODEL are set together (or neither is)');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`MERIDIAN_LLM_BASE_URL must be an http(s) URL, got "${baseUrl}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`MERIDIAN_LLM_BASE_URL must be an http(s) URL, got "${baseUrl}"`);
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    model,
    apiKey: env.MERIDIAN_LLM_API_KEY?.trim() || null,
    timeoutMs: Math.max(1, int('MERIDIAN_LLM_TIMEOUT_MS', env.MERIDIAN_LLM_TIMEOUT_MS, 20_000)),
    maxTokens: Math.max(1, int('MERIDIAN_LLM_MAX_TOKENS', env.MERIDIAN_LLM_MAX_TOKENS, 1024)),
    contextTokens: Math.max(512, int('MERIDIAN_LLM_CONTEXT_TOKENS', env.MERIDIAN_LLM_CONTEXT_TOKENS, 8192)),
    structuredOutput: structuredOutputOf(env.MERIDIAN_LLM_STRUCTURED_OUTPUT),
    breakerFailures: Math.max(1, int('MERIDIAN_LLM_BREAKER_FAILURES', env.MERIDIAN_LLM_BREAKER_FAILURES, 3)),
    breakerCooldownMs: Math.max(
      0,
      int('MERIDIAN_LLM_BREAKER_COOLDOWN_MS', env.MERIDIAN_LLM_BREAKER_COOLDOWN_MS, 30_000),
    ),
  };
}

function structuredOutputOf(value: string | undefined): LlmConfig['structuredOutput'] {
  const v = value?.trim() || 'json_schema';
  if ((STRUCTURED_OUTPUT as readonly string[]).includes(v)) return v as LlmConfig['structuredOutput'];
  throw new Error(
    `MERIDIAN_LLM_STRUCTURED_OUTPUT must be one of ${STRUCTURED_OUTPUT.join(', ')}, got "${v}"`,
  );
}
