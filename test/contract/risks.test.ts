/**
 * Contract tests of createRisk and getRisk: the record, its score and severity (derived or MANUAL), validation and
 * references, scopes.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { apiPathOf, expectProblem, fieldErrors } from '../support/assertions.js';
import { makeProject, makeRisk, uniq } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

describe('Risks', () => {
  const ctx = contractSuite();
  let project: any;
  beforeEach(async () => {
    project = await makeProject(ctx.api);
  });

  describe('createRisk', () => {
    it('answers 201 with Location, ETag and the defaults', async () => {
      const title = uniq('Lead paint');
      const res = await ctx.api.post('createRisk', '/risks', {
        body: { title, projectId: project.id, likelihood: 4, impact: 4 },
      });
      expect(res.status).to.equal(201);
      expect(res.headers.get('etag')).to.equal('"1"');
      const r = res.body;
      expect(r).to.include({
        projectId: project.id,
        title,
        description: null,
        likelihood: 4,
        impact: 4,
        score: 16,
        severity: 'HIGH',
        severitySource: 'DERIVED',
        status: 'OPEN',
        ownerId: null,
        mitigation: null,
        dueDate: null,
        version: 1,
      });
      expect(r.createdAt).to.equal(r.updatedAt);
      const location = res.headers.get('location') as string;
      expect(new URL(location, ctx.server.baseUrl).pathname).to.equal(`/v1/risks/${r.id}`);
      const got = await ctx.api.get('getRisk', apiPathOf(location, ctx.server.baseUrl));
      expect(got.status).to.equal(200);
      expect(got.body).to.deep.equal(r);
    });

    for (const [likelihood, impact, score, severity] of [
      [1, 1, 1, 'LOW'],
      [1, 4, 4, 'LOW'],
      [1, 5, 5, 'MEDIUM'],
      [3, 3, 9, 'MEDIUM'],
      [2, 5, 10, 'HIGH'],
      [4, 4, 16, 'HIGH'],
      [4, 5, 20, 'CRITICAL'],
      [5, 5, 25, 'CRITICAL'],
    ] as const) {
      it(`derives score ${score} and severity ${severity} from (${likelihood}, ${impact})`, async () => {
        const r = await makeRisk(ctx.api, project.id, { likelihood, impact });
        expect(r).to.include({ likelihood, impact, score, severity, severitySource: 'DERIVED' });
      });
    }

    it('keeps an explicit severity as MANUAL and round-trips the optional fields', async () => {
      const body = {
        title: uniq('Manual'),
        projectId: project.id,
        likelihood: 1,
        impact: 1,
        severity: 'CRITICAL',
        status: 'MITIGATING',
        description: 'described',
        mitigation: 'a plan',
        dueDate: '2026-07-15',
      };
      const res = await ctx.api.post('createRisk', '/risks', { body });
      expect(res.status).to.equal(201);
      expect(res.body).to.include({ ...body, score: 1, severitySource: 'MANUAL', ownerId: null });
      const got = await ctx.api.get('getRisk', `/risks/${res.body.id}`);
      expect(got.body).to.deep.equal(res.body);
    });

    for (const [name, patch, field] of [
      ['likelihood 0', { likelihood: 0 }, '/likelihood'],
      ['likelihood 6', { likelihood: 6 }, '/likelihood'],
      ['likelihood 2.5', { likelihood: 2.5 }, '/likelihood'],
      ['impact 0', { impact: 0 }, '/impact'],
      ['impact "3"', { impact: '3' }, '/impact'],
      ['severity BOGUS', { severity: 'BOGUS' }, '/severity'],
      ['projectId not a uuid', { projectId: 'p-1' }, '/projectId'],
      ['dueDate 2026-02-30', { dueDate: '2026-02-30' }, '/dueDate'],
    ] as [string, Record<string, unknown>, string][]) {
      it(`answers 400 for ${name}`, async () => {
        const res = await ctx.api.post('createRisk', '/risks', {
          body: { title: uniq('Bad'), projectId: project.id, likelihood: 3, impact: 3, ...patch },
        });
        const body = expectProblem(res, 400, 'validation_failed');
        expect(fieldErrors(body)).to.include(`body:${field}`);
      });
    }

    it('answers 400 listing missing title, projectId, likelihood and impact', async () => {
      const res = await ctx.api.post('createRisk', '/risks', { body: {} });
      const body = expectProblem(res, 400, 'validation_failed');
      expect(fieldErrors(body)).to.include.members([
        'body:/title',
        'body:/projectId',
        'body:/likelihood',
        'body:/impact',
      ]);
      const partial = await ctx.api.post('createRisk', '/risks', { body: { likelihood: 2, impact: 2 } });
      const pb = expectProblem(partial, 400, 'validation_failed');
      expect(fieldErrors(pb)).to.have.members(['body:/title', 'body:/projectId']);
      const list = await ctx.api.get('listRisks', '/risks');
      expect(list.body.pagination.total).to.equal(0);
    });

    it('answers 400 for an unknown body property', async () => {
      const res = await ctx.api.post('createRisk', '/risks', {
        body: { title: uniq('x'), projectId: project.id, likelihood: 2, impact: 2, score: 4 },
      });
      const body = expectProblem(res, 400, 'validation_failed');
      expect(fieldErrors(body)).to.include('body:/score');
    });

    it('answers 422 with errors path /projectId when the project does not exist', async () => {
      const res = await ctx.api.post('createRisk', '/risks', {
        body: { title: uniq('Orphan'), projectId: randomUUID(), likelihood: 2, impact: 2 },
      });
      const body = expectProblem(res, 422, 'validation_failed');
      expect(body.errors[0]).to.include({ location: 'body', path: '/projectId' });
      const list = await ctx.api.get('listRisks', '/risks');
      expect(list.body.pagination.total).to.equal(0);
    });

    it('answers 422 when the project belongs to another tenant', async () => {
      const other = await ctx.server.createTenant();
      const theirs = await makeProject(ctx.as(other.keys.write));
      const res = await ctx.api.post('createRisk', '/risks', {
        body: { title: uniq('Cross'), projectId: theirs.id, likelihood: 2, impact: 2 },
      });
      const body = expectProblem(res, 422, 'validation_failed');
      expect(fieldErrors(body)).to.include('body:/projectId');
      const otherList = await ctx.as(other.keys.read).get('listRisks', '/risks');
      expect(otherList.body.pagination.total).to.equal(0);
    });

    it('answers 422 for an ownerId that names no resource of the tenant', async () => {
      const res = await ctx.api.post('createRisk', '/risks', {
        body: {
          title: uniq('Owner'),
          projectId: project.id,
          likelihood: 2,
          impact: 2,
          ownerId: randomUUID(),
        },
      });
      const body = expectProblem(res, 422, 'validation_failed');
      expect(fieldErrors(body)).to.include('body:/ownerId');
    });

    it('answers 403 forbidden for a read-only key', async () => {
      const res = await ctx.reader.post('createRisk', '/risks', {
        body: { title: uniq('x'), projectId: project.id, likelihood: 2, impact: 2 },
      });
      const body = expectProblem(res, 403, 'forbidden');
      expect(body.detail).to.contain('"write"');
    });
  });

  describe('getRisk', () => {
    it('answers the risk with its ETag', async () => {
      const r = await makeRisk(ctx.api, project.id, { likelihood: 3, impact: 5 });
      const res = await ctx.reader.get('getRisk', `/risks/${r.id}`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('etag')).to.equal('"1"');
      expect(res.body).to.deep.equal(r);
    });

    it('answers 404 for an unknown id and for another tenant’s risk', async () => {
      expectProblem(await ctx.api.get('getRisk', `/risks/${randomUUID()}`), 404, 'not_found');
      const other = await ctx.server.createTenant();
      const otherApi = ctx.as(other.keys.write);
      const theirs = await makeRisk(otherApi, (await makeProject(otherApi)).id);
      expectProblem(await ctx.api.get('getRisk', `/risks/${theirs.id}`), 404, 'not_found');
    });

    it('answers 400 for a non-uuid id', async () => {
      const body = expectProblem(await ctx.api.get('getRisk', '/risks/123'), 400, 'validation_failed');
      expect(fieldErrors(body)).to.include('path:id');
    });
  });
});
