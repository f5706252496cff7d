/**
 * Handlers' declared results (server/http/result.ts): status, `ETag` from the version, `Location` under the
 * configured base path (docs/design.md, "Conventions on the wire").
 */
import { expect } from 'chai';
import { accepted, created, noContent, ok, versioned } from '../../server/http/result.js';

describe('declared results', () => {
  const id = '01920000-0000-7000-8000-00000000000a';
  it('created: 201, Location under the configured base path, ETag when the record is versioned', () => {
    expect(created({ basePath: '/v1' }, { id, version: 1, name: 'r' }, '/risks/{id}')).to.deep.equal({
      status: 201,
      body: { id, version: 1, name: 'r' },
      headers: { Location: `/v1/risks/${id}`, ETag: '"1"' },
    });
    expect(
      created({ basePath: '/api/v2' }, { id, asOf: '2026-01-31' }, '/status-reports/{id}'),
    ).to.deep.equal({
      status: 201,
      body: { id, asOf: '2026-01-31' },
      headers: { Location: `/api/v2/status-reports/${id}` },
    });
  });
  it('versioned: 200 with the version as a strong ETag', () => {
    expect(versioned({ id, version: 7 })).to.deep.equal({
      status: 200,
      body: { id, version: 7 },
      headers: { ETag: '"7"' },
    });
  });
  it('accepted: 202, with the Location of what follows the work when there is one', () => {
    const execution = { executionId: id, status: 'PENDING' };
    expect(accepted(execution, { basePath: '/v1' }, '/agents/executions/{executionId}', id)).to.deep.equal({
      status: 202,
      body: execution,
      headers: { Location: `/v1/agents/executions/${id}` },
    });
    expect(accepted({ id })).to.deep.equal({ status: 202, body: { id } });
  });
  it('ok and noContent: 200 with the body, 204 without one', () => {
    expect(ok({ answer: 'yes' })).to.deep.equal({ status: 200, body: { answer: 'yes' } });
    expect(noContent()).to.deep.equal({ status: 204 });
  });
});
