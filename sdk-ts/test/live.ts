/**
 * The live-server setup of the SDK tests: the real server (test/support/server.ts: the app in-process on
 * 127.0.0.1:0 over a fresh SQLite file, or Postgres with MERIDIAN_TEST_DB=postgres) for the calling `describe`
 * block, and for each test a fresh tenant with an SDK client on its write key (no retries).
 */
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer, type TestTenant } from '../../test/support/server.js';
import { Meridian, type Project } from '../src/index.js';

/** The server of a block and, inside a test, its tenant, its client, and a way to create a project. */
export interface LiveSuite {
  readonly server: TestServer;
  readonly tenant: TestTenant;
  /** An SDK client with the tenant's write key and `maxRetries: 0`. */
  readonly client: Meridian;
  /** Creates a project of the tenant (a unique name, 2025 dates, then `overrides`); its data. */
  newProject(overrides?: Partial<Project>): Promise<Project>;
}

/** Registers the hooks of a block of live-server SDK tests and returns its context. */
export function liveSuite(): LiveSuite {
  let server: TestServer | undefined;
  let tenant: TestTenant | undefined;
  let client: Meridian | undefined;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server?.close());
  beforeEach(async () => {
    if (!server) throw new Error('liveSuite: no server');
    tenant = await server.createTenant();
    client = new Meridian({ apiKey: tenant.keys.write, baseUrl: server.baseUrl, maxRetries: 0 });
  });
  const must = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('liveSuite: read inside a test');
    return value;
  };
  return {
    get server() {
      return must(server);
    },
    get tenant() {
      return must(tenant);
    },
    get client() {
      return must(client);
    },
    async newProject(overrides = {}) {
      const { data } = await must(client).createProject({
        body: {
          name: `Project ${randomUUID().slice(0, 8)}`,
          startDate: '2025-01-06',
          endDate: '2025-12-19',
          ...overrides,
        },
      });
      if (!data) throw new Error('createProject answered no data');
      return data;
    },
  };
}
