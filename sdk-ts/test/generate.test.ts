/**
 * Proves that new operations in the spec join the SDK's resource tree through generation alone: a temporary copy of
 * the spec gains a nested read named by its path and an action named by `x-sdk`, scripts/generate-sdk-ts.sh
 * regenerates into a temporary tree, the unchanged hand-written src/lib compiles against it (with typed calls and
 * @ts-expect-error on wrong ones), and the new methods run against a real local HTTP server. Also checks that every
 * operation of the spec is a method of the tree, and that a name clash fails generation.
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
import { Meridian, operationTable, resourceMethods, VERSION } from '../src/index.js';
import { type ScriptedServer, startScriptedServer } from './helpers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sdk = path.join(root, 'sdk-ts');

describe('sdk-ts generation', function () {
  this.timeout(180_000);

  it('reaches every operation of the spec through one method of the resource tree', () => {
    const spec = YAML.parse(fs.readFileSync(path.join(root, 'generated/openapi.yaml'), 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string; 'x-sdk'?: unknown }>>;
    };
    // Operations with `x-sdk: false` (the console's sign-in) are documented, never wrapped.
    const specIds = Object.values(spec.paths).flatMap((item) =>
      ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'].flatMap((m) =>
        item[m] && item[m]['x-sdk'] !== false ? (item[m].operationId ?? []) : [],
      ),
    );
    expect(Object.keys(operationTable)).to.deep.equal(specIds);
    expect(Object.keys(resourceMethods)).to.deep.equal(specIds);
    expect(new Set(Object.values(resourceMethods)).size).to.equal(specIds.length);
    const client = new Meridian({ apiKey: 'mk_live_test' });
    for (const [id, where] of Object.entries(resourceMethods)) {
      const parts = where.split('.');
      const name = parts.pop() as string;
      const resource = parts.reduce<Record<string, unknown>>(
        (node, part) => node[part] as never,
        client as never,
      );
      expect(resource[name], `${id} → client.${where}`).to.be.a('function');
    }
    expect(resourceMethods.rotateWebhookSecret).to.equal('webhooks.rotateSecret');
    expect(resourceMethods.getMilestone).to.equal('projects.milestones.retrieve');
  });

  it('carries the very operation table the server reads (one generator writes both)', () => {
    expect(operationTable).to.deep.equal(serverTable);
  });

  it('keeps package.json at the version derived from the spec', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(sdk, 'package.json'), 'utf8')) as { version: string };
    const spec = YAML.parse(fs.readFileSync(path.join(root, 'generated/openapi.yaml'), 'utf8'));
    expect(VERSION).to.equal(pkg.version);
    expect(VERSION).to.equal(`${spec.info.version}-${spec.info['x-sdk'].prerelease}`);
  });

  describe('new operations in the spec', () => {
    let tmp: string;
    let scripted: ScriptedServer | undefined;
    before(() => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-sdkts-gen-'));
    });
    after(async () => {
      await scripted?.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    });
    const problem = { default: { $ref: '#/components/responses/Problem' } };
    const generate = (spec: unknown, name: string) => {
      const specFile = path.join(tmp, `${name}.yaml`);
      fs.writeFileSync(specFile, YAML.stringify(spec));
      const out = path.join(tmp, name);
      execFileSync('bash', ['scripts/generate-sdk-ts.sh', out], {
        cwd: root,
        env: { ...process.env, SPEC: specFile },
        stdio: 'pipe',
      });
      return out;
    };

    it('join the tree by `generate` alone: a path-named nested read and an x-sdk-named action', async () => {
      // 1. A copy of the spec with two more operations.
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
            ...problem,
          },
        },
      };
      spec.paths['/api-keys/{id}/suspend'] = {
        post: {
          operationId: 'suspendApiKey',
          'x-sdk': { method: 'suspend' },
          tags: ['API Keys'],
          summary: 'Roll an API key',
          description: 'A test-only operation.',
          'x-required-scope': 'admin',
          parameters: [{ $ref: '#/components/parameters/Id' }],
          responses: {
            '200': {
              description: 'The new key.',
              content: {
                'application/json': {
                  schema: { $ref: '#/components/schemas/ApiKeyWithSecret' },
                  examples:
                    spec.paths['/api-keys'].post.responses['201'].content['application/json'].examples,
                },
              },
            },
            ...problem,
          },
        },
      };

      // 2. The SDK's generator, as `npm run generate` calls it, into a temporary out-root.
      const out = generate(spec, 'out');
      const generated = path.join(out, 'sdk-ts/src/generated');
      const resources = fs.readFileSync(path.join(generated, 'resources.ts'), 'utf8');
      expect(resources).to.match(/^\/\*\*\n \* This file was generated from spec\/openapi.yaml/);
      expect(resources).to.contain('readonly portfolios: PortfoliosResource = new PortfoliosResource(this);');
      expect(resources).to.contain("getPortfolioSummary: 'portfolios.summary.retrieve',");
      expect(resources).to.contain("suspendApiKey: 'apiKeys.suspend',");
      expect(Object.keys(operationTable)).to.not.include('getPortfolioSummary');

      // 3. The unchanged hand-written code next to the new generated tree, plus a program that calls the new methods.
      const src = path.join(out, 'sdk-ts/src');
      fs.cpSync(path.join(sdk, 'src/lib'), path.join(src, 'lib'), { recursive: true });
      fs.copyFileSync(path.join(sdk, 'src/index.ts'), path.join(src, 'index.ts'));
      fs.symlinkSync(path.join(root, 'node_modules'), path.join(out, 'node_modules'), 'dir');
      fs.writeFileSync(
        path.join(src, 'use.ts'),
        `import { Meridian } from './index.js';
const client = new Meridian({ apiKey: 'mk_live_test', baseUrl: process.argv[2], maxRetries: 0 });
const { data, requestId } = await client.portfolios.summary.retrieve('p-1', { includeClosed: true }).withResponse();
const count: number = data.projectCount;
const rolled = await client.apiKeys.suspend('k-1');
const secret: string = rolled.key;
// @ts-expect-error -- a misspelt query parameter is a compile error
void (() => client.portfolios.summary.retrieve('p-1', { includeClosd: true }));
// @ts-expect-error -- the path parameter is required
void (() => client.apiKeys.suspend());
console.log(JSON.stringify({ count, requestId, secret }));
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

      // 5. ... and runs against a real HTTP server, on the paths and query of the new operations.
      scripted = await startScriptedServer([
        { status: 200, body: { id: 'p-1', projectCount: 3 } },
        { status: 200, body: { key: 'mk_live_rolled' } },
      ]);
      // (async: the scripted server lives in this process and must keep answering)
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', path.join(src, 'use.ts'), scripted.baseUrl],
        { cwd: root, encoding: 'utf8' },
      );
      expect(JSON.parse(stdout)).to.deep.equal({ count: 3, requestId: 'req-1', secret: 'mk_live_rolled' });
      expect(scripted.requests.map((r) => `${r.method} ${r.url}`)).to.deep.equal([
        'GET /v1/portfolios/p-1/summary?includeClosed=true',
        'POST /v1/api-keys/k-1/suspend',
      ]);
    });

    it('fails generation on a clash: two operations named alike in one resource', () => {
      const spec = YAML.parse(fs.readFileSync(path.join(root, 'generated/openapi.yaml'), 'utf8'));
      spec.paths['/agents/run'].post['x-sdk'] = { resource: 'webhooks', method: 'test' };
      expect(() => generate(spec, 'clash')).to.throw(/webhooks\.test is already runAgent's name/);
    });
  });
});
