/**
 * The setup every contract test file shares, declared once: the real server for the file's `describe` block (started
 * before its tests, closed after them), and for each test a fresh tenant with a client per key. Call it at the top of
 * a `describe` block; a block's own `beforeEach` hooks run after the tenant exists.
 *
 * ```ts
 * describe('Risks', () => {
 *   const ctx = contractSuite({ clock });
 *   it('…', async () => { const res = await ctx.api.get('listRisks', '/risks'); … });
 * });
 * ```
 */
import { type Api, client } from './client.js';
import { startTestServer, type TestServer, type TestTenant } from './server.js';

/** What `startTestServer` takes (clock, environment, database, logger). */
export type TestServerOptions = NonNullable<Parameters<typeof startTestServer>[0]>;

/** The server of a `describe` block and, inside a test, that test's tenant and its clients. */
export interface ContractSuite {
  /** The running server (from the block's `before` hook on). */
  readonly server: TestServer;
  /** The test's own tenant (a new one for each test). */
  readonly tenant: TestTenant;
  /** A client with the tenant's read+write key. */
  readonly api: Api;
  /** A client with the tenant's read-only key. */
  readonly reader: Api;
  /** A client with the tenant's admin key. */
  readonly admin: Api;
  /** A client of this server with any key, or none (`null`). */
  as(key: string | null): Api;
}

/**
 * Registers the hooks of a contract test block and returns its context. With `tenantPerTest: false` no tenant is
 * made (a block that builds its own tenants); reading `tenant` or a client then throws.
 */
export function contractSuite(options: TestServerOptions & { tenantPerTest?: boolean } = {}): ContractSuite {
  const { tenantPerTest = true, ...serverOptions } = options;
  let server: TestServer | undefined;
  let tenant: TestTenant | undefined;
  let clients: { api: Api; reader: Api; admin: Api } | undefined;
  before(async () => {
    server = await startTestServer(serverOptions);
  });
  after(async () => server?.close());
  if (tenantPerTest) {
    beforeEach(async () => {
      const made = await running().createTenant();
      tenant = made;
      clients = {
        api: client(running().baseUrl, made.keys.write),
        reader: client(running().baseUrl, made.keys.read),
        admin: client(running().baseUrl, made.keys.admin),
      };
    });
  }
  function running(): TestServer {
    if (!server)
      throw new Error('contractSuite: the server starts in the before hook; read it inside a test');
    return server;
  }
  function ofTest<T>(value: T | undefined): T {
    if (value === undefined)
      throw new Error('contractSuite: no tenant (tenantPerTest is false, or outside a test)');
    return value;
  }
  return {
    get server() {
      return running();
    },
    get tenant() {
      return ofTest(tenant);
    },
    get api() {
      return ofTest(clients).api;
    },
    get reader() {
      return ofTest(clients).reader;
    },
    get admin() {
      return ofTest(clients).admin;
    },
    as(key) {
      return client(running().baseUrl, key);
    },
  };
}
