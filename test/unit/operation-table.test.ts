/**
 * The one operation table (scripts/operation-table.ts): what it reads from a spec and what it refuses. The server
 * (scope check, header parameters, default page size) and the TypeScript SDK both read the table it renders.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import YAML from 'yaml';
import { operationTable } from '../../generated/operations.js';
import { readOperations, type Spec } from '../../scripts/operation-table.js';

/** A minimal spec: a list operation with a path-level parameter and refs, and an update with If-Match. */
function spec(patch: (s: any) => void = () => undefined): Spec {
  const s: any = {
    paths: {
      '/things/{id}/parts': {
        parameters: [{ $ref: '#/components/parameters/Id' }],
        get: {
          operationId: 'listParts',
          tags: ['Things'],
          'x-required-scope': 'read',
          parameters: [
            { name: 'status', in: 'query' },
            { $ref: '#/components/parameters/Limit' },
            { name: 'offset', in: 'query', schema: { default: 0 } },
          ],
        },
        patch: {
          operationId: 'updateParts',
          'x-required-scope': 'write',
          parameters: [{ name: 'If-Match', in: 'header', required: true }],
          requestBody: { content: {} },
        },
      },
    },
    components: {
      schemas: { ApiKeyScope: { enum: ['read', 'write', 'admin'] } },
      parameters: {
        Id: { name: 'id', in: 'path', required: true },
        Limit: { name: 'limit', in: 'query', schema: { default: 10, maximum: 50 } },
      },
    },
  };
  patch(s);
  return s;
}

describe('the operation table generator', () => {
  it('reads method, path, parameters by location (refs and path-level ones included), limits, tag and scope', () => {
    const [list, update] = readOperations(spec());
    expect(list).to.deep.include({
      operationId: 'listParts',
      method: 'GET',
      path: '/things/{id}/parts',
      pathParams: ['id'],
      queryParams: ['status', 'limit', 'offset'],
      headerParams: [],
      hasBody: false,
      paginated: true,
      limit: { default: 10, maximum: 50 },
      tag: 'Things',
      scope: 'read',
      paramsRequired: true,
    });
    expect(update).to.deep.include({
      operationId: 'updateParts',
      method: 'PATCH',
      headerParams: ['If-Match'],
      hasBody: true,
      paginated: false,
      limit: null,
      tag: '',
      scope: 'write',
    });
  });

  it('refuses a missing or unknown scope, a duplicate operationId and a list limit without bounds', () => {
    const broken: [string, (s: any) => void, RegExp][] = [
      ['no scope', (s) => delete s.paths['/things/{id}/parts'].get['x-required-scope'], /x-required-scope/],
      [
        'unknown scope',
        (s) => (s.paths['/things/{id}/parts'].get['x-required-scope'] = 'root'),
        /x-required-scope/,
      ],
      [
        'duplicate',
        (s) => (s.paths['/things/{id}/parts'].patch.operationId = 'listParts'),
        /duplicate operationId/,
      ],
      [
        'no maximum',
        (s) => delete s.components.parameters.Limit.schema.maximum,
        /integer default and maximum/,
      ],
      ['reserved name', (s) => (s.components.parameters.Id.name = 'body'), /reserved by the SDK/],
    ];
    for (const [what, patch, message] of broken)
      expect(() => readOperations(spec(patch)), what).to.throw(message);
  });

  it('is what generated/operations.ts holds for the real spec', () => {
    const real = YAML.parse(
      fs.readFileSync(new URL('../../generated/openapi.yaml', import.meta.url), 'utf8'),
    ) as Spec;
    const rows = readOperations(real);
    expect(rows.map((r) => r.operationId)).to.deep.equal(Object.keys(operationTable));
    for (const row of rows) {
      const entry = operationTable[row.operationId as keyof typeof operationTable];
      expect(
        { scope: entry.scope, headerParams: entry.headerParams, limit: entry.limit },
        row.operationId,
      ).to.deep.equal({
        scope: row.scope,
        headerParams: row.headerParams,
        limit: row.limit,
      });
    }
    expect(operationTable.listProjects.limit).to.deep.equal({ default: 25, maximum: 100 });
    expect(operationTable.updateProject.headerParams).to.deep.equal(['If-Match']);
    expect(operationTable.createWebhook.scope).to.equal('admin');
  });
});
