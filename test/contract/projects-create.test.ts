/**
 * Contract tests of createProject: the record and its defaults, validation (400, 422), duplicate codes (409) and
 * scopes.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { apiPathOf, expectProblem, fieldErrors } from '../support/assertions.js';
import { makeProject, uniq } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

describe('Projects: create', () => {
  const ctx = contractSuite();

  describe('createProject', () => {
    it('answers 201 with Location, ETag "1" and the defaults', async () => {
      const name = uniq('Created');
      const res = await ctx.api.post('createProject', '/projects', {
        body: { name, startDate: '2026-02-01', endDate: '2026-06-30' },
      });
      expect(res.status).to.equal(201);
      expect(res.headers.get('etag')).to.equal('"1"');
      const p = res.body;
      expect(p.id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(p).to.include({
        name,
        startDate: '2026-02-01',
        endDate: '2026-06-30',
        status: 'PLANNED',
        actualCost: null,
        progress: null,
        category: null,
        borough: null,
        managingAgency: null,
        clientAgency: null,
        currency: 'USD',
        version: 1,
        code: null,
        description: null,
        forecastEndDate: null,
        budget: null,
        forecastCost: null,
        projectManagerId: null,
      });
      expect(p.tags).to.deep.equal([]);
      expect(p.createdAt).to.equal(p.updatedAt);
      expect(Math.abs(Date.parse(p.createdAt) - Date.now())).to.be.below(60_000);

      const location = res.headers.get('location') as string;
      expect(new URL(location, ctx.server.baseUrl).pathname).to.equal(`/v1/projects/${p.id}`);
      const got = await ctx.api.get('getProject', apiPathOf(location, ctx.server.baseUrl));
      expect(got.status).to.equal(200);
      expect(got.body.id).to.equal(p.id);
      expect(got.body.name).to.equal(name);
    });

    it('round-trips every optional field', async () => {
      const body = {
        name: uniq('Full'),
        code: uniq('CODE'),
        description: 'A full project',
        status: 'ON_TRACK',
        startDate: '2025-03-03',
        endDate: '2026-11-30',
        forecastEndDate: '2027-02-26',
        budget: 48500000,
        forecastCost: 51200000.5,
        actualCost: 18750000.25,
        progress: 38,
        tags: ['bridges', 'manhattan'],
      };
      const res = await ctx.api.post('createProject', '/projects', { body });
      expect(res.status).to.equal(201);
      expect(res.body).to.deep.include({ ...body, currency: 'USD', version: 1, projectManagerId: null });
      const got = await ctx.api.get('getProject', `/projects/${res.body.id}`);
      expect(got.body).to.deep.include({ ...body, currency: 'USD', version: 1 });
    });

    it('answers 422 for a projectManagerId that names no resource of the tenant', async () => {
      const res = await ctx.api.post('createProject', '/projects', {
        body: {
          name: uniq('PM'),
          startDate: '2026-01-01',
          endDate: '2026-02-01',
          projectManagerId: randomUUID(),
        },
      });
      const body = expectProblem(res, 422, 'validation_failed');
      expect(fieldErrors(body)).to.include('body:/projectManagerId');
    });

    it('answers 400 listing each missing required field', async () => {
      const res = await ctx.api.post('createProject', '/projects', { body: {} });
      const body = expectProblem(res, 400, 'validation_failed');
      const fields = fieldErrors(body);
      expect(fields).to.include.members(['body:/name', 'body:/startDate', 'body:/endDate']);
      const partial = await ctx.api.post('createProject', '/projects', { body: { name: 'Only name' } });
      const pb = expectProblem(partial, 400, 'validation_failed');
      expect(fieldErrors(pb)).to.include.members(['body:/startDate', 'body:/endDate']);
      expect(fieldErrors(pb)).not.to.include('body:/name');
      const list = await ctx.api.get('listProjects', '/projects');
      expect(list.body.pagination.total).to.equal(0);
    });

    it('answers 400 for malformed field values', async () => {
      const res = await ctx.api.post('createProject', '/projects', {
        body: { name: '', startDate: 'tomorrow', endDate: '2026-01-01', progress: 101, budget: -1 },
      });
      const body = expectProblem(res, 400, 'validation_failed');
      expect(fieldErrors(body)).to.include.members([
        'body:/name',
        'body:/startDate',
        'body:/progress',
        'body:/budget',
      ]);
    });

    it('answers 400 for impossible calendar dates', async () => {
      for (const [startDate, endDate, field] of [
        ['2026-13-01', '2026-13-05', '/startDate'],
        ['2026-02-30', '2026-03-01', '/startDate'],
        ['2026-01-01', '2026-04-31', '/endDate'],
      ] as const) {
        const res = await ctx.api.post('createProject', '/projects', {
          body: { name: uniq('Date'), startDate, endDate },
        });
        const body = expectProblem(res, 400, 'validation_failed');
        expect(fieldErrors(body)).to.include(`body:${field}`);
      }
      const list = await ctx.api.get('listProjects', '/projects');
      expect(list.body.pagination.total).to.equal(0);
    });

    it('answers 422 with errors[0].path /endDate when endDate is before startDate', async () => {
      const res = await ctx.api.post('createProject', '/projects', {
        body: { name: uniq('Backwards'), startDate: '2026-06-01', endDate: '2026-05-31' },
      });
      const body = expectProblem(res, 422, 'validation_failed');
      expect(body.errors).to.be.an('array').with.length.greaterThan(0);
      expect(body.errors[0]).to.include({ location: 'body', path: '/endDate' });
      const list = await ctx.api.get('listProjects', '/projects');
      expect(list.body.pagination.total).to.equal(0);
    });

    it('accepts endDate equal to startDate', async () => {
      const p = await makeProject(ctx.api, { startDate: '2026-06-01', endDate: '2026-06-01' });
      expect(p.endDate).to.equal('2026-06-01');
    });

    it('answers 409 conflict for a duplicate code in the tenant, but allows it in another tenant', async () => {
      const code = uniq('DUP');
      const first = await makeProject(ctx.api, { code });
      const dup = await ctx.api.post('createProject', '/projects', {
        body: { name: uniq('Dup'), code, startDate: '2026-01-01', endDate: '2026-02-01' },
      });
      const body = expectProblem(dup, 409, 'conflict');
      expect(body.detail).to.contain(code);
      const list = await ctx.api.get('listProjects', '/projects');
      expect(list.body.data.map((p: any) => p.id)).to.deep.equal([first.id]);

      const other = await ctx.server.createTenant();
      const theirs = await makeProject(ctx.as(other.keys.write), { code });
      expect(theirs.code).to.equal(code);
    });

    it('answers 400 for an unknown body property', async () => {
      const res = await ctx.api.post('createProject', '/projects', {
        body: { name: uniq('Extra'), startDate: '2026-01-01', endDate: '2026-02-01', colour: 'red' },
      });
      const body = expectProblem(res, 400, 'validation_failed');
      expect(JSON.stringify(body.errors)).to.contain('colour');
      const list = await ctx.api.get('listProjects', '/projects');
      expect(list.body.pagination.total).to.equal(0);
    });

    it('answers 400 for a read-only property (currency, id, version)', async () => {
      const res = await ctx.api.post('createProject', '/projects', {
        body: { name: uniq('RO'), startDate: '2026-01-01', endDate: '2026-02-01', currency: 'EUR' },
      });
      expectProblem(res, 400, 'validation_failed');
    });

    it('answers 403 forbidden for a read-only key, naming the scope', async () => {
      const res = await ctx.reader.post('createProject', '/projects', {
        body: { name: uniq('Nope'), startDate: '2026-01-01', endDate: '2026-02-01' },
      });
      const body = expectProblem(res, 403, 'forbidden');
      expect(body.detail).to.contain('"write"');
      const list = await ctx.api.get('listProjects', '/projects');
      expect(list.body.pagination.total).to.equal(0);
    });

    it('accepts an admin key (scopes are cumulative)', async () => {
      const p = await makeProject(ctx.admin);
      expect(p.version).to.equal(1);
    });
  });
});
