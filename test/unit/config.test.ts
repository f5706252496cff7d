/**
 * The configuration read from the environment (server/config.ts, the only reader of process.env): defaults per
 * NODE_ENV, the webhook delivery settings, the model settings, and the malformed values it refuses at start.
 */
import { expect } from 'chai';
import {
  ConfigError,
  DEFAULT_RETRY_SCHEDULE_MS,
  loadConfig,
  missingProductionSettings,
} from '../../server/config.js';

describe('webhook delivery settings (MERIDIAN_WEBHOOK_*, MERIDIAN_WORKER)', () => {
  it('allows private targets only when MERIDIAN_WEBHOOK_ALLOW_PRIVATE=true, in any mode; runs the worker in process except in test', () => {
    expect(loadConfig({})).to.include({ webhookAllowPrivate: false, worker: true });
    const key = Buffer.alloc(32, 1).toString('base64');
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://meridian@db/meridian',
      MERIDIAN_PUBLIC_URL: 'https://pmo.example.com',
    };
    expect(loadConfig({ ...production, MERIDIAN_SECRET_KEY: key })).to.include({
      webhookAllowPrivate: false,
      worker: true,
    });
    expect(loadConfig({ NODE_ENV: 'development' })).to.include({ webhookAllowPrivate: false, worker: true });
    expect(loadConfig({ NODE_ENV: 'test' })).to.include({ webhookAllowPrivate: false, worker: false });
    expect(loadConfig({ NODE_ENV: 'development', MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true' })).to.include({
      webhookAllowPrivate: true,
    });
    const explicit = loadConfig({
      ...production,
      MERIDIAN_SECRET_KEY: key,
      MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true',
      MERIDIAN_WORKER: 'false',
    });
    expect(explicit).to.include({ webhookAllowPrivate: true, worker: false });
  });

  it('reads the retry schedule in ms (docs/design.md default) and refuses malformed ones', () => {
    expect(loadConfig({}).webhookRetrySchedule).to.deep.equal(DEFAULT_RETRY_SCHEDULE_MS);
    expect(DEFAULT_RETRY_SCHEDULE_MS).to.deep.equal([
      0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(loadConfig({ MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '0, 10,20' }).webhookRetrySchedule).to.deep.equal([
      0, 10, 20,
    ]);
    expect(() => loadConfig({ MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '0,x' })).to.throw(/RETRY_SCHEDULE/);
    expect(() => loadConfig({ MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '0,,5' })).to.throw(/RETRY_SCHEDULE/);
    expect(() => loadConfig({ MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '100,5' })).to.throw(/start with 0/);
    expect(loadConfig({}).webhookTimeoutMs).to.equal(15_000);
  });
});

describe('MERIDIAN_LLM_* configuration (server/config.ts)', () => {
  it('is off unless both the base URL and the model are set; reads the timeout, the token limit and the key', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).llm).to.equal(null);
    expect(
      loadConfig({
        NODE_ENV: 'test',
        MERIDIAN_LLM_BASE_URL: 'http://127.0.0.1:11434/v1/',
        MERIDIAN_LLM_MODEL: 'llama3.1:8b',
      }).llm,
    ).to.deep.equal({
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'llama3.1:8b',
      apiKey: null,
      timeoutMs: 20_000,
      maxTokens: 1024,
      contextTokens: 8192,
      structuredOutput: 'json_schema',
      breakerFailures: 3,
      breakerCooldownMs: 30_000,
    });
    const full = loadConfig({
      NODE_ENV: 'test',
      MERIDIAN_LLM_BASE_URL: 'https://api.openai.com/v1',
      MERIDIAN_LLM_MODEL: 'gpt-4o-mini',
      MERIDIAN_LLM_API_KEY: 'sk-x',
      MERIDIAN_LLM_TIMEOUT_MS: '5000',
      MERIDIAN_LLM_MAX_TOKENS: '300',
    }).llm;
    expect(full).to.include({ apiKey: 'sk-x', timeoutMs: 5000, maxTokens: 300 });
    expect(() =>
      loadConfig({
        NODE_ENV: 'test',
        MERIDIAN_LLM_BASE_URL: 'http://x',
        MERIDIAN_LLM_MODEL: 'x',
        MERIDIAN_LLM_STRUCTURED_OUTPUT: 'xml',
      }),
    ).to.throw(/MERIDIAN_LLM_STRUCTURED_OUTPUT/);
    expect(() => loadConfig({ NODE_ENV: 'test', MERIDIAN_LLM_MODEL: 'x' })).to.throw(/set together/);
    expect(() =>
      loadConfig({ NODE_ENV: 'test', MERIDIAN_LLM_BASE_URL: 'ftp://x', MERIDIAN_LLM_MODEL: 'x' }),
    ).to.throw(/http/);
    expect(() =>
      loadConfig({
        NODE_ENV: 'test',
        MERIDIAN_LLM_BASE_URL: 'http://x/v1',
        MERIDIAN_LLM_MODEL: 'x',
        MERIDIAN_LLM_TIMEOUT_MS: 'soon',
      }),
    ).to.throw(/MERIDIAN_LLM_TIMEOUT_MS/);
  });
});

describe('production settings (docs/deploy.md, "Production")', () => {
  const key = Buffer.alloc(32, 2).toString('base64');

  it('refuses to start without each setting production needs, naming every missing one in one line', () => {
    let message = '';
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (err) {
      expect(err).to.be.instanceOf(ConfigError);
      message = (err as Error).message;
    }
    expect(message).to.equal(
      'production (NODE_ENV=production) needs DATABASE_URL (or MERIDIAN_SQLITE_FILE), MERIDIAN_PUBLIC_URL, MERIDIAN_SECRET_KEY: see docs/deploy.md, "Production"',
    );
    expect(message).to.not.include('\n');
    expect(() =>
      loadConfig({ NODE_ENV: 'production', MERIDIAN_SQLITE_FILE: '/srv/m.sqlite', MERIDIAN_SECRET_KEY: key }),
    ).to.throw(ConfigError, /needs MERIDIAN_PUBLIC_URL: /);
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        MERIDIAN_PUBLIC_URL: 'ftp://x',
        DATABASE_URL: 'postgres://d',
        MERIDIAN_SECRET_KEY: key,
      }),
    ).to.throw(ConfigError, /MERIDIAN_PUBLIC_URL must be an http\(s\) URL/);
  });

  it('turns the demo off and migrations on start off in production, on elsewhere; each overridable', () => {
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://d',
      MERIDIAN_PUBLIC_URL: 'https://pmo.example.com/',
      MERIDIAN_SECRET_KEY: key,
    };
    expect(loadConfig(production)).to.include({
      demo: false,
      migrateOnStart: false,
      publicUrl: 'https://pmo.example.com',
    });
    expect(loadConfig({ NODE_ENV: 'development' })).to.include({
      demo: true,
      migrateOnStart: true,
      publicUrl: null,
    });
    expect(loadConfig({ MERIDIAN_DEMO: 'false' })).to.include({ demo: false });
    expect(
      loadConfig({ ...production, MERIDIAN_DEMO: 'true', MERIDIAN_MIGRATE_ON_START: 'true' }),
    ).to.include({
      demo: true,
      migrateOnStart: true,
    });
    expect(missingProductionSettings(production)).to.deep.equal([]);
  });

  it('reads MERIDIAN_CORS_ORIGINS as a list (empty: CORS off) and MERIDIAN_SHUTDOWN_TIMEOUT_MS', () => {
    expect(loadConfig({}).corsOrigins).to.deep.equal([]);
    expect(
      loadConfig({ MERIDIAN_CORS_ORIGINS: ' https://a.example , https://b.example/ ,' }).corsOrigins,
    ).to.deep.equal(['https://a.example', 'https://b.example']);
    expect(loadConfig({}).shutdownTimeoutMs).to.equal(10_000);
    expect(loadConfig({ MERIDIAN_SHUTDOWN_TIMEOUT_MS: '2500' }).shutdownTimeoutMs).to.equal(2_500);
  });
});
