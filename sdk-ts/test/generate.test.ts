/**
 * Proves that a new operation in the spec reaches the SDK through generation alone: a temporary copy of the spec
 * gains an operation, scripts/generate-sdk-ts.sh regenerates into a temporary tree, the unchanged hand-written
 * src/lib compiles against it (with a typed call and an @ts-expect-error on a wrong field), and the new method runs
 * against a real local HTTP server. Also checks that every operation of the spec is a client method.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import YAML from 'yaml';
import { operationTable as serverTable } from '../../generated/operations.js';
import { Meridian, operationTable, VERSION } from '../src/index.js';
import { type ScriptedServer, startScriptedServer } from './helpers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sdk = path.join(root, 'sdk-ts');

describe('sdk-ts generation', function () {
  this.timeout(180_000);

  it('exposes every operation of the spec as a client method (and nothing else)', () => {
    const spec = YAML.parse(fs.readFileSync(path.join(root, 'generated/openapi.yaml'), 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const specIds = Object.values(spec.paths).flatMap((item) =>
      ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'].flatMap(
        (m) => item[m]?.operationId ?? [],
      ),
    );
    expect(Object.keys(operationTable)).to.deep.equal(specIds);
    expect(Object.keys(operationTable).sort()).to.deep.equal(Object.keys(serverTable).sort());
    const client = new Meridian({ apiKey: 'mk_live_test' });
    for (const id of specIds) expect(client[id as keyof typeof operationTable], id).to.be.a('function');
    for (const [id, op] of Object.entries(operationTable)) {
      const server = serverTable[id as keyof typeof serverTable];
      expect({ method: op.method, path: op.path }, id).to.deep.equal({
        method: server.method,
        path: server.path,
      });
    }
  });

  it('carries the very operation table the server reads (one generator writes both)', () => {
    expect(operationTable).to.deep.equal(serverTable);
  });

  it('keeps VERSION equal to package.json', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(sdk, 'package.json'), 'utf8')) as { version: string };
    expect(VERSION).to.equal(pkg.version);
  });

  describe('a new operation in the spec', () => {
    let tmp: string;
    let scripted: ScriptedServer | undefined;
    before(() => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-sdkts-gen-'));
    });
    after(async () => {
      await scripted?.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    });

    it('becomes client.<operationId>() with typed params and result by `generate` alone', async () => {
      // 1. A copy of the spec with one more operation (path + query parameters, a typed response).
      const spec = YAML.parse(fs.readFileSync(path.join(root, 'generated/openapi.yaml'), 'utf8'));
      expect(spec.paths['/portfolios/{id}/summary']).to.equal(undefined);
      spec.paths['/portfolios/{id}/summary'] = {
        get: {
          operationId: 'getPortfolioSummary',
          tags: ['Projects'],
          summary: 'Summarise a portfolio',
          description: 'A test-only operation.',
          'x-required-scope': 'read',
          parameters: [
            { $ref: '#/components/parameters/Id' },
            // Every parameter and body carries an example (redocly.yaml; openapi-typescript applies its rules).
            {
              name: 'includeClosed',
              in: 'query',
              required: false,
              schema: { type: 'boolean' },
              example: true,
            },
          ],
          responses: {
            '200': {
              description: 'The summary.',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['id', 'projectCount'],
                    properties: { id: { type: 'string' }, projectCount: { type: 'integer' } },
                  },
                  example: { id: '01a20566-b56d-7210-88a1-4d3565ac043d', projectCount: 12 },
                },
              },
            },
            default: { $ref: '#/components/responses/Problem' },
          },
        },
      };
      const specFile = path.join(tmp, 'openapi.yaml');
      fs.writeFileSync(specFile, YAML.stringify(spec));

      // 2. The SDK's generator, as `npm run generate` calls it, into a temporary out-root.
      const out = path.join(tmp, 'out');
      execFileSync('bash', ['scripts/generate-sdk-ts.sh', out], {
        cwd: root,
        env: { ...process.env, SPEC: specFile },
        stdio: 'pipe',
      });
      const generated = path.join(out, 'sdk-ts/src/generated');
      const operations = fs.readFileSync(path.join(generated, 'operations.ts'), 'utf8');
      expect(operations).to.match(/^\/\*\*\n \* This file was generated from spec\/openapi.yaml/);
      expect(operations).to.contain(
        "getPortfolioSummary: { method: 'GET', path: '/portfolios/{id}/summary', pathParams: ['id'], queryParams: ['includeClosed']",
      );
      expect(operations).to.contain("getPortfolioSummary(params: OperationParams<'getPortfolioSummary'>");
      expect(Object.keys(operationTable)).to.not.include('getPortfolioSummary');

      // 3. The unchanged hand-written code next to the new generated tree, plus a program that calls the new method.
      const src = path.join(out, 'sdk-ts/src');
      fs.cpSync(path.join(sdk, 'src/lib'), path.join(src, 'lib'), { recursive: true });
      fs.copyFileSync(path.join(sdk, 'src/index.ts'), path.join(src, 'index.ts'));
      fs.symlinkSync(path.join(root, 'node_modules'), path.join(out, 'node_modules'), 'dir');
      fs.writeFileSync(
        path.join(src, 'use.ts'),
        `import { Meridian } from './index.js';
const client = new Meridian({ apiKey: 'mk_live_test', baseUrl: process.argv[2], maxRetries: 0 });
const { data, requestId } = await client.getPortfolioSummary({ id: 'p-1', includeClosed: true });
const count: number = data.projectCount;
// @ts-expect-error -- a misspelt query parameter is a compile error
void (() => client.getPortfolioSummary({ id: 'p-1', includeClosd: true }));
// @ts-expect-error -- the path parameter is required
void (() => client.getPortfolioSummary({ includeClosed: true }));
console.log(JSON.stringify({ count, requestId }));
`,
      );
      const tsconfig = JSON.parse(fs.readFileSync(path.join(sdk, 'tsconfig.json'), 'utf8'));
      tsconfig.compilerOptions.types = ['node'];
      tsconfig.include = ['src'];
      fs.writeFileSync(path.join(out, 'sdk-ts/tsconfig.json'), JSON.stringify(tsconfig));
      fs.copyFileSync(path.join(sdk, 'package.json'), path.join(out, 'sdk-ts/package.json'));

      // 4. It type-checks (strict) ...
      try {
        execFileSync(
          path.join(root, 'node_modules/.bin/tsc'),
          ['-p', path.join(out, 'sdk-ts/tsconfig.json')],
          {
            encoding: 'utf8',
          },
        );
      } catch (error) {
        throw new Error(`tsc failed:\n${(error as { stdout?: string }).stdout}`);
      }

      // 5. ... and runs against a real HTTP server, on the path and query of the new operation.
      scripted = await startScriptedServer([{ status: 200, body: { id: 'p-1', projectCount: 3 } }]);
      // (async: the scripted server lives in this process and must keep answering)
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', path.join(src, 'use.ts'), scripted.baseUrl],
        { cwd: root, encoding: 'utf8' },
      );
      expect(JSON.parse(stdout)).to.deep.equal({ count: 3, requestId: 'req-1' });
      expect(scripted.requests.map((r) => `${r.method} ${r.url}`)).to.deep.equal([
        'GET /v1/portfolios/p-1/summary?includeClosed=true',
      ]);
    });
  });
});
