/**
 * The SDKs' resource tree (scripts/sdk-tree.ts): names read from the path, `x-sdk` where the path does not say,
 * refusals of clashes, and the SDK version derived from the spec's `info`.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import YAML from 'yaml';
import { readOperations, type Spec } from '../../scripts/operation-table.js';
import { pathArgNames, sdkTree, sdkVersion } from '../../scripts/sdk-tree.js';

const op = (operationId: string, extra: Record<string, unknown> = {}) => ({
  operationId,
  'x-required-scope': 'read',
  ...extra,
});
const paging = { parameters: [{ $ref: '#/components/parameters/Limit' }, { name: 'offset', in: 'query' }] };

/** A spec of things and their parts, with the shapes the tree has to name. */
function spec(patch: (s: any) => void = () => undefined): Spec {
  const s: any = {
    paths: {
      '/things': { get: op('listThings', paging), post: op('createThing') },
      '/things/{id}': { get: op('getThing'), patch: op('updateThing'), delete: op('deleteThing') },
      '/things/{id}/parts': { get: op('listParts', paging) },
      '/things/{id}/archive': { post: op('archiveThing', { 'x-sdk': { method: 'archive' } }) },
      '/parts/{id}': { get: op('getPart', { 'x-sdk': { resource: 'things.parts' } }) },
      '/me': { get: op('getMe') },
    },
    components: {
      schemas: { ApiKeyScope: { enum: ['read', 'write', 'admin'] } },
      parameters: { Limit: { name: 'limit', in: 'query', schema: { default: 10, maximum: 50 } } },
    },
  };
  patch(s);
  return s;
}
const named = (s: Spec) =>
  Object.fromEntries(
    [...sdkTree(s, readOperations(s))].map(([id, n]) => [id, [...n.resource, n.method].join('.')]),
  );

describe('the SDK resource tree', () => {
  it('names CRUD by path and method, nested lists by their segments, actions and moves by x-sdk', () => {
    expect(named(spec())).to.deep.equal({
      listThings: 'things.list',
      createThing: 'things.create',
      getThing: 'things.retrieve',
      updateThing: 'things.update',
      deleteThing: 'things.delete',
      listParts: 'things.parts.list',
      archiveThing: 'things.archive',
      getPart: 'things.parts.retrieve',
      getMe: 'me.retrieve',
    });
    expect(pathArgNames('/things/{id}/parts')).to.deep.equal(['thingId']);
    expect(pathArgNames('/agents/executions/{executionId}')).to.deep.equal(['executionId']);
    expect(pathArgNames('/status-reports/{id}')).to.deep.equal(['statusReportId']);
  });

  it('refuses an unnamed action, a clash (also in snake_case), a reserved name and a bad x-sdk', () => {
    const broken: [string, (s: any) => void, RegExp][] = [
      ['unnamed action', (s) => delete s.paths['/things/{id}/archive'].post['x-sdk'], /add x-sdk/],
      [
        'same name',
        (s) => (s.paths['/parts/{id}'].get['x-sdk'] = { resource: 'things', method: 'retrieve' }),
        /things\.retrieve is already getThing's name/,
      ],
      [
        'snake_case clash',
        (s) => {
          s.paths['/things/{id}/archive'].post['x-sdk'] = { resource: 'things', method: 'archiveURL' };
          s.paths['/parts/{id}'].get['x-sdk'] = { resource: 'things', method: 'archiveUrl' };
        },
        /things\.archiveUrl is already archiveThing's name/,
      ],
      [
        'method shadows a resource',
        (s) => (s.paths['/parts/{id}'].get['x-sdk'] = { resource: 'things', method: 'parts' }),
        /clashes with the resource things\.parts/,
      ],
      ['reserved', (s) => (s.paths['/me'].get['x-sdk'] = { method: 'withResponse' }), /reserved/],
      ['bad x-sdk', (s) => (s.paths['/me'].get['x-sdk'] = { verb: 'get' }), /only \{ resource, method \}/],
    ];
    for (const [what, patch, message] of broken) expect(() => named(spec(patch)), what).to.throw(message);
  });

  it("names the real spec's operations as the SDKs show them", () => {
    const real = YAML.parse(
      fs.readFileSync(new URL('../../generated/openapi.yaml', import.meta.url), 'utf8'),
    );
    const tree = named(real);
    expect(tree).to.include({
      runAgent: 'agents.run',
      askAgent: 'agents.ask',
      rotateWebhookSecret: 'webhooks.rotateSecret',
      testWebhook: 'webhooks.test',
      listWebhookDeliveries: 'webhooks.deliveries.list',
      getResourceAvailability: 'resources.availability.retrieve',
      listAllocationConflicts: 'allocations.conflicts.list',
      listProjectStatusReports: 'projects.statusReports.list',
      getMilestone: 'projects.milestones.retrieve',
      revokeApiKey: 'apiKeys.delete',
      getMe: 'me.retrieve',
    });
  });

  it('derives one version for both registries from info.version and info.x-sdk.prerelease', () => {
    expect(sdkVersion({ info: { version: '1.0.0', 'x-sdk': { prerelease: 'beta.1' } } })).to.deep.equal({
      npm: '1.0.0-beta.1',
      python: '1.0.0b1',
    });
    expect(sdkVersion({ info: { version: '1.2.0', 'x-sdk': { prerelease: 'rc.2' } } }).python).to.equal(
      '1.2.0rc2',
    );
    expect(sdkVersion({ info: { version: '2.0.0' } })).to.deep.equal({ npm: '2.0.0', python: '2.0.0' });
    expect(() => sdkVersion({ info: { version: '1.0' } })).to.throw(/MAJOR\.MINOR\.PATCH/);
    expect(() => sdkVersion({ info: { version: '1.0.0', 'x-sdk': { prerelease: 'preview' } } })).to.throw(
      /alpha\.N, beta\.N or rc\.N/,
    );
  });
});
