/**
 * Contract tests of the Projects tag: listProjects, createProject, getProject, updateProject.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { client } from '../support/client.js';
import { startTestServer, type TestServer, type TestTenant } from '../support/server.js';
import { type Api, apiPathOf, expectProblem, fieldErrors, makeProject, parseLink, uniq } from './helpers.js';

describe('Projects', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());

  let tenant: TestTenant;
  let api: Api;
  beforeEach(async () => {
    tenant = await server.createTenant();
    api = client(server.baseUrl, tenant.keys.write);
  });

  describe('listProjects', () => {
    it('answers an empty envelope for a new tenant, without a Link header', async () => {
      const res = await api.get('listProjects', '/projects');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(res.body).to.deep.equal({
        data: [],
        pagination: { limit: 25, offset: 0, total: 0, hasMore: false },
      });
      expect(res.headers.get('link')).to.equal(null);
    });

    it('pages 7 projects by 3 with the envelope and working next/prev Link headers', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) ids.push((await makeProject(api, { name: `Paged ${i}` })).id);

      const p1 = await api.get('listProjects', '/projects', { query: { limit: 3 } });
      expect(p1.status).to.equal(200);
      expect(p1.body.pagination).to.deep.equal({ limit: 3, offset: 0, total: 7, hasMore: true });
      expect(p1.body.data.map((p: any) => p.id)).to.deep.equal(ids.slice(0, 3));
      const l1 = parseLink(p1.headers.get('link'));
      expect(Object.keys(l1)).to.deep.equal(['next']);

      const p2 = await api.get('listProjects', apiPathOf(l1.next as string, server.baseUrl));
      expect(p2.status).to.equal(200);
      expect(p2.body.pagination).to.deep.equal({ limit: 3, offset: 3, total: 7, hasMore: true });
      expect(p2.body.data.map((p: any) => p.id)).to.deep.equal(ids.slice(3, 6));
      const l2 = parseLink(p2.headers.get('link'));
      expect(Object.keys(l2).sort()).to.deep.equal(['next', 'prev']);

      const p3 = await api.get('listProjects', apiPathOf(l2.next as string, server.baseUrl));
      expect(p3.status).to.equal(200);
      expect(p3.body.pagination).to.deep.equal({ limit: 3, offset: 6, total: 7, hasMore: false });
      expect(p3.body.data.map((p: any) => p.id)).to.deep.equal(ids.slice(6));
      const l3 = parseLink(p3.headers.get('link'));
      expect(Object.keys(l3)).to.deep.equal(['prev']);

      const back = await api.get('listProjects', apiPathOf(l3.prev as string, server.baseUrl));
      expect(back.body.pagination).to.deep.equal({ limit: 3, offset: 3, total: 7, hasMore: true });
      expect(back.body.data.map((p: any) => p.id)).to.deep.equal(ids.slice(3, 6));
      const prev1 = await api.get('listProjects', apiPathOf(l2.prev as string, server.baseUrl));
      expect(prev1.body.data.map((p: any) => p.id)).to.deep.equal(ids.slice(0, 3));
    });

    it('keeps the filter in Link URLs', async () => {
      for (let i = 0; i < 3; i++) await makeProject(api, { status: 'AT_RISK' });
      await makeProject(api, { status: 'ON_TRACK' });
      const res = await api.get('listProjects', '/projects', { query: { status: 'AT_RISK', limit: 2 } });
      expect(res.body.pagination).to.deep.equal({ limit: 2, offset: 0, total: 3, hasMore: true });
      const next = parseLink(res.headers.get('link')).next as string;
      expect(new URL(next).searchParams.get('status')).to.equal('AT_RISK');
      const p2 = await api.get('listProjects', apiPathOf(next, server.baseUrl));
      expect(p2.body.pagination).to.deep.equal({ limit: 2, offset: 2, total: 3, hasMore: false });
      expect(p2.body.data).to.have.length(1);
      expect(p2.body.data[0].status).to.equal('AT_RISK');
    });

    it('sends no Link header when everything fits in one page', async () => {
      for (let i = 0; i < 3; i++) await makeProject(api);
      const res = await api.get('listProjects', '/projects', { query: { limit: 3 } });
      expect(res.body.pagination).to.deep.equal({ limit: 3, offset: 0, total: 3, hasMore: false });
      expect(res.headers.get('link')).to.equal(null);
    });

    it('defaults limit to 25 and orders by createdAt then id', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 27; i++) ids.push((await makeProject(api)).id);
      const res = await api.get('listProjects', '/projects');
      expect(res.body.pagination).to.deep.equal({ limit: 25, offset: 0, total: 27, hasMore: true });
      expect(res.body.data).to.have.length(25);
      const data = res.body.data as { id: string; createdAt: string }[];
      expect(data.map((p) => p.id)).to.deep.equal(ids.slice(0, 25));
      for (let i = 1; i < data.length; i++) {
        const a = data[i - 1] as { id: string; createdAt: string };
        const b = data[i] as { id: string; createdAt: string };
        const ta = Date.parse(a.createdAt);
        const tb = Date.parse(b.createdAt);
        expect(ta < tb || (ta === tb && a.id < b.id)).to.equal(true, `${a.id} before ${b.id}`);
      }
      const rest = await api.get('listProjects', '/projects', { query: { offset: 25 } });
      expect(rest.body.data.map((p: any) => p.id)).to.deep.equal(ids.slice(25));
    });

    it('restricts the list to the given status (seed rule 1)', async () => {
      const planned = await makeProject(api);
      const risky1 = await makeProject(api, { status: 'AT_RISK' });
      const onTrack = await makeProject(api, { status: 'ON_TRACK' });
      const risky2 = await makeProject(api, { status: 'AT_RISK' });
      const res = await api.get('listProjects', '/projects', { query: { status: 'AT_RISK' } });
      expect(res.status).to.equal(200);
      expect(res.body.data.map((p: any) => p.id)).to.deep.equal([risky1.id, risky2.id]);
      expect(res.body.pagination.total).to.equal(2);
      const planRes = await api.get('listProjects', '/projects', { query: { status: 'PLANNED' } });
      expect(planRes.body.data.map((p: any) => p.id)).to.deep.equal([planned.id]);
      const trackRes = await api.get('listProjects', '/projects', { query: { status: 'ON_TRACK' } });
      expect(trackRes.body.data.map((p: any) => p.id)).to.deep.equal([onTrack.id]);
      const none = await api.get('listProjects', '/projects', { query: { status: 'CANCELLED' } });
      expect(none.body).to.deep.equal({
        data: [],
        pagination: { limit: 25, offset: 0, total: 0, hasMore: false },
      });
    });

    for (const [name, query, field] of [
      ['limit 0', { limit: 0 }, 'limit'],
      ['limit 101', { limit: 101 }, 'limit'],
      ['offset -1', { offset: -1 }, 'offset'],
      ['status BOGUS', { status: 'BOGUS' }, 'status'],
      ['limit abc', { limit: 'abc' }, 'limit'],
    ] as const) {
      it(`answers 400 naming the query field for ${name}`, async () => {
        const res = await api.get('listProjects', '/projects', { query });
        const body = expectProblem(res, 400, 'validation_failed');
        expect(fieldErrors(body)).to.include(`query:${field}`);
      });
    }

    it('never lists another tenant’s projects', async () => {
      const mine = await makeProject(api);
      const other = await server.createTenant();
      const otherApi = client(server.baseUrl, other.keys.write);
      const theirs = await makeProject(otherApi);
      const res = await api.get('listProjects', '/projects');
      expect(res.body.data.map((p: any) => p.id)).to.deep.equal([mine.id]);
      const res2 = await otherApi.get('listProjects', '/projects');
      expect(res2.body.data.map((p: any) => p.id)).to.deep.equal([theirs.id]);
    });

    it('works with a read-only key', async () => {
      const p = await makeProject(api);
      const res = await client(server.baseUrl, tenant.keys.read).get('listProjects', '/projects');
      expect(res.status).to.equal(200);
      expect(res.body.data.map((x: any) => x.id)).to.deep.equal([p.id]);
    });

    it('filters on category, borough, managingAgency and clientAgency, item by item and ignoring case', async () => {
      const dep = await makeProject(api, { managingAgency: 'DEP', borough: 'Brooklyn', category: 'Sewers' });
      const both = await makeProject(api, {
        managingAgency: 'DEP',
        borough: 'Brooklyn, Queens',
        clientAgency: 'DEP, DOT',
      });
      const dot = await makeProject(api, { managingAgency: 'DOT', borough: 'Brooklyn' });
      await makeProject(api);
      const ids = async (query: Record<string, string>) =>
        (await api.get('listProjects', '/projects', { query })).body.data.map((p: any) => p.id);
      expect(await ids({ managingAgency: 'DEP', borough: 'Brooklyn' })).to.deep.equal([dep.id, both.id]);
      expect(await ids({ borough: 'queens' })).to.deep.equal([both.id]);
      expect(await ids({ clientAgency: ' dot ' })).to.deep.equal([both.id]);
      expect(await ids({ category: 'Sewers', status: 'PLANNED' })).to.deep.equal([dep.id]);
      expect(await ids({ borough: 'Brooklyn' })).to.deep.equal([dep.id, both.id, dot.id]);
      expect(await ids({ borough: 'Bronx' })).to.deep.equal([]);
      const res = await api.get('listProjects', '/projects', { query: { managingAgency: 'DEP', limit: 1 } });
      expect(res.body.pagination).to.deep.equal({ limit: 1, offset: 0, total: 2, hasMore: true });
      expect(parseLink(res.headers.get('link')).next).to.contain('managingAgency=DEP');
      // A PATCH moves the project between filters; null takes it out.
      await api.patch('updateProject', `/projects/${dot.id}`, { body: { borough: 'Staten Island' } });
      expect(await ids({ borough: 'Brooklyn' })).to.deep.equal([dep.id, both.id]);
      expect(await ids({ borough: 'staten island' })).to.deep.equal([dot.id]);
      await api.patch('updateProject', `/projects/${dep.id}`, { body: { managingAgency: null } });
      expect(await ids({ managingAgency: 'DEP' })).to.deep.equal([both.id]);
      // Another tenant's projects never match.
      const otherApi = client(server.baseUrl, (await server.createTenant()).keys.write);
      await makeProject(otherApi, { managingAgency: 'DEP' });
      expect(await ids({ managingAgency: 'DEP' })).to.deep.equal([both.id]);
    });

    it('refuses an empty descriptive filter (400)', async () => {
      const res = await api.get('listProjects', '/projects', { query: { borough: '' } });
      expectProblem(res, 400, 'validation_failed');
    });
  });

  describe('listProjects: sort, q and tag', () => {
    const ids = async (query: Record<string, string | number>) => {
      const res = await api.get('listProjects', '/projects', { query });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.data.map((p: any) => p.id) as string[];
    };
    const names = async (query: Record<string, string | number>) =>
      (await api.get('listProjects', '/projects', { query })).body.data.map((p: any) => p.name) as string[];

    it('sorts by name ignoring case, ascending and with "-" descending', async () => {
      for (const name of ['beta', 'Alpha', 'gamma works', 'Delta', 'GAMMA']) await makeProject(api, { name });
      expect(await names({ sort: 'name' })).to.deep.equal(['Alpha', 'beta', 'Delta', 'GAMMA', 'gamma works']);
      expect(await names({ sort: '-name' })).to.deep.equal([
        'gamma works',
        'GAMMA',
        'Delta',
        'beta',
        'Alpha',
      ]);
    });

    it('sorts by budget and forecastEndDate with unknowns last either way and id breaking ties', async () => {
      const a = await makeProject(api, { budget: 100, forecastEndDate: '2027-03-01' });
      const b = await makeProject(api, { forecastEndDate: '2026-11-30' });
      const c = await makeProject(api, { budget: 50 });
      const d = await makeProject(api, { budget: 100, forecastEndDate: '2027-03-01' });
      expect(await ids({ sort: 'budget' })).to.deep.equal([c.id, a.id, d.id, b.id]);
      expect(await ids({ sort: '-budget' })).to.deep.equal([d.id, a.id, c.id, b.id]);
      expect(await ids({ sort: 'forecastEndDate' })).to.deep.equal([b.id, a.id, d.id, c.id]);
      expect(await ids({ sort: '-forecastEndDate' })).to.deep.equal([d.id, a.id, b.id, c.id]);
    });

    it('sorts by endDate and createdAt, and pages a sort with Link headers that keep it', async () => {
      const late = await makeProject(api, { endDate: '2028-06-30' });
      const early = await makeProject(api, { endDate: '2026-02-28' });
      const mid = await makeProject(api, { endDate: '2027-01-31' });
      expect(await ids({ sort: 'endDate' })).to.deep.equal([early.id, mid.id, late.id]);
      expect(await ids({ sort: '-endDate' })).to.deep.equal([late.id, mid.id, early.id]);
      expect(await ids({ sort: 'createdAt' })).to.deep.equal([late.id, early.id, mid.id]);
      expect(await ids({ sort: '-createdAt' })).to.deep.equal([mid.id, early.id, late.id]);
      const first = await api.get('listProjects', '/projects', { query: { sort: '-endDate', limit: 2 } });
      expect(first.body.data.map((p: any) => p.id)).to.deep.equal([late.id, mid.id]);
      const next = parseLink(first.headers.get('link')).next as string;
      expect(next).to.contain('sort=-endDate');
      const second = await api.get('listProjects', apiPathOf(next, server.baseUrl));
      expect(second.body.data.map((p: any) => p.id)).to.deep.equal([early.id]);
    });

    it('refuses a sort field the spec does not list (400 naming the parameter)', async () => {
      for (const sort of ['progress', '-actualCost', 'name,budget', '+name', '']) {
        const body = expectProblem(
          await api.get('listProjects', '/projects', { query: { sort } }),
          400,
          'validation_failed',
        );
        expect(fieldErrors(body), sort).to.include('query:sort');
      }
    });

    it('q matches name, code or description anywhere, ignoring case', async () => {
      const bridge = await makeProject(api, {
        name: 'Brooklyn Bridge Promenade Rehabilitation',
        code: 'DOT-BBR-14',
      });
      const tunnel = await makeProject(api, {
        name: 'Flushing Tunnel',
        code: 'GWN-7',
        description: 'Reactivation of the 1911 pumping station under the canal.',
      });
      const school = await makeProject(api, {
        name: 'PS 123 Addition',
        description: 'New gym; 100% design review done.',
      });
      expect(await ids({ q: 'bridge' })).to.deep.equal([bridge.id]);
      expect(await ids({ q: 'ROOKLYN BRI' })).to.deep.equal([bridge.id]);
      expect(await ids({ q: 'bbr-1' })).to.deep.equal([bridge.id]);
      expect(await ids({ q: 'gwn-7' })).to.deep.equal([tunnel.id]);
      expect(await ids({ q: 'Pumping Station' })).to.deep.equal([tunnel.id]);
      expect(await ids({ q: 'IN' })).to.deep.equal([tunnel.id]);
      expect(await ids({ q: 'ps' })).to.deep.equal([school.id]);
      // LIKE wildcards are literal: "100%" is that text, "_" is an underscore.
      expect(await ids({ q: '100%' })).to.deep.equal([school.id]);
      expect(await ids({ q: '1_0' })).to.deep.equal([]);
      expect(await ids({ q: '"canal' })).to.deep.equal([]);
      expect(await ids({ q: 'nothing like it' })).to.deep.equal([]);
      // With the other parameters: the count is of the matches, the order is the sort's.
      const res = await api.get('listProjects', '/projects', { query: { q: 'n', sort: '-name', limit: 2 } });
      expect(res.body.pagination.total).to.equal(3);
      expect(res.body.data.map((p: any) => p.id)).to.deep.equal([school.id, tunnel.id]);
      expect(await ids({ q: 'tunnel', status: 'AT_RISK' })).to.deep.equal([]);
      // A rename moves the project in and out of the matches; other tenants' projects never match.
      await api.patch('updateProject', `/projects/${tunnel.id}`, {
        body: { name: 'Gowanus Canal Flushing Tunnel' },
      });
      expect(await ids({ q: 'gowanus' })).to.deep.equal([tunnel.id]);
      await api.patch('updateProject', `/projects/${tunnel.id}`, { body: { description: null } });
      expect(await ids({ q: 'pumping' })).to.deep.equal([]);
      const otherApi = client(server.baseUrl, (await server.createTenant()).keys.write);
      await makeProject(otherApi, { name: 'Brooklyn Bridge Park' });
      expect(await ids({ q: 'brooklyn bridge' })).to.deep.equal([bridge.id]);
    });

    it('tag restricts to projects carrying the tag, ignoring case, and follows updates', async () => {
      const a = await makeProject(api, { tags: ['Resilience', 'Sandy'] });
      const b = await makeProject(api, { tags: ['resilience'] });
      await makeProject(api, { tags: ['schools'] });
      expect(await ids({ tag: 'resilience' })).to.deep.equal([a.id, b.id]);
      expect(await ids({ tag: ' SANDY ' })).to.deep.equal([a.id]);
      expect(await ids({ tag: 'sand' })).to.deep.equal([]);
      await api.patch('updateProject', `/projects/${a.id}`, { body: { tags: ['Sandy'] } });
      expect(await ids({ tag: 'resilience' })).to.deep.equal([b.id]);
      expect(await ids({ tag: 'resilience', q: 'nope' })).to.deep.equal([]);
      expectProblem(
        await api.get('listProjects', '/projects', { query: { tag: '' } }),
        400,
        'validation_failed',
      );
      expectProblem(
        await api.get('listProjects', '/projects', { query: { q: '' } }),
        400,
        'validation_failed',
      );
    });
  });

  describe('createProject', () => {
    it('answers 201 with Location, ETag "1" and the defaults', async () => {
      const name = uniq('Created');
      const res = await api.post('createProject', '/projects', {
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
      expect(new URL(location, server.baseUrl).pathname).to.equal(`/v1/projects/${p.id}`);
      const got = await api.get('getProject', apiPathOf(location, server.baseUrl));
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
      const res = await api.post('createProject', '/projects', { body });
      expect(res.status).to.equal(201);
      expect(res.body).to.deep.include({ ...body, currency: 'USD', version: 1, projectManagerId: null });
      const got = await api.get('getProject', `/projects/${res.body.id}`);
      expect(got.body).to.deep.include({ ...body, currency: 'USD', version: 1 });
    });

    it('answers 422 for a projectManagerId that names no resource of the tenant', async () => {
      const res = await api.post('createProject', '/projects', {
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
      const res = await api.post('createProject', '/projects', { body: {} });
      const body = expectProblem(res, 400, 'validation_failed');
      const fields = fieldErrors(body);
      expect(fields).to.include.members(['body:/name', 'body:/startDate', 'body:/endDate']);
      const partial = await api.post('createProject', '/projects', { body: { name: 'Only name' } });
      const pb = expectProblem(partial, 400, 'validation_failed');
      expect(fieldErrors(pb)).to.include.members(['body:/startDate', 'body:/endDate']);
      expect(fieldErrors(pb)).not.to.include('body:/name');
      const list = await api.get('listProjects', '/projects');
      expect(list.body.pagination.total).to.equal(0);
    });

    it('answers 400 for malformed field values', async () => {
      const res = await api.post('createProject', '/projects', {
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
        const res = await api.post('createProject', '/projects', {
          body: { name: uniq('Date'), startDate, endDate },
        });
        const body = expectProblem(res, 400, 'validation_failed');
        expect(fieldErrors(body)).to.include(`body:${field}`);
      }
      const list = await api.get('listProjects', '/projects');
      expect(list.body.pagination.total).to.equal(0);
    });

    it('answers 422 with errors[0].path /endDate when endDate is before startDate', async () => {
      const res = await api.post('createProject', '/projects', {
        body: { name: uniq('Backwards'), startDate: '2026-06-01', endDate: '2026-05-31' },
      });
      const body = expectProblem(res, 422, 'validation_failed');
      expect(body.errors).to.be.an('array').with.length.greaterThan(0);
      expect(body.errors[0]).to.include({ location: 'body', path: '/endDate' });
      const list = await api.get('listProjects', '/projects');
      expect(list.body.pagination.total).to.equal(0);
    });

    it('accepts endDate equal to startDate', async () => {
      const p = await makeProject(api, { startDate: '2026-06-01', endDate: '2026-06-01' });
      expect(p.endDate).to.equal('2026-06-01');
    });

    it('answers 409 conflict for a duplicate code in the tenant, but allows it in another tenant', async () => {
      const code = uniq('DUP');
      const first = await makeProject(api, { code });
      const dup = await api.post('createProject', '/projects', {
        body: { name: uniq('Dup'), code, startDate: '2026-01-01', endDate: '2026-02-01' },
      });
      const body = expectProblem(dup, 409, 'conflict');
      expect(body.detail).to.contain(code);
      const list = await api.get('listProjects', '/projects');
      expect(list.body.data.map((p: any) => p.id)).to.deep.equal([first.id]);

      const other = await server.createTenant();
      const theirs = await makeProject(client(server.baseUrl, other.keys.write), { code });
      expect(theirs.code).to.equal(code);
    });

    it('answers 400 for an unknown body property', async () => {
      const res = await api.post('createProject', '/projects', {
        body: { name: uniq('Extra'), startDate: '2026-01-01', endDate: '2026-02-01', colour: 'red' },
      });
      const body = expectProblem(res, 400, 'validation_failed');
      expect(JSON.stringify(body.errors)).to.contain('colour');
      const list = await api.get('listProjects', '/projects');
      expect(list.body.pagination.total).to.equal(0);
    });

    it('answers 400 for a read-only property (currency, id, version)', async () => {
      const res = await api.post('createProject', '/projects', {
        body: { name: uniq('RO'), startDate: '2026-01-01', endDate: '2026-02-01', currency: 'EUR' },
      });
      expectProblem(res, 400, 'validation_failed');
    });

    it('answers 403 forbidden for a read-only key, naming the scope', async () => {
      const res = await client(server.baseUrl, tenant.keys.read).post('createProject', '/projects', {
        body: { name: uniq('Nope'), startDate: '2026-01-01', endDate: '2026-02-01' },
      });
      const body = expectProblem(res, 403, 'forbidden');
      expect(body.detail).to.contain('"write"');
      const list = await api.get('listProjects', '/projects');
      expect(list.body.pagination.total).to.equal(0);
    });

    it('accepts an admin key (scopes are cumulative)', async () => {
      const p = await makeProject(client(server.baseUrl, tenant.keys.admin));
      expect(p.version).to.equal(1);
    });
  });

  describe('getProject', () => {
    it('answers the detail view with milestones, team, budgetSummary and ETag', async () => {
      const p = await makeProject(api, {
        budget: 1000,
        actualCost: 250,
        forecastCost: 1200,
        endDate: '2026-12-21',
        forecastEndDate: '2026-12-31',
      });
      const res = await api.get('getProject', `/projects/${p.id}`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('etag')).to.equal('"1"');
      const { milestones, team, budgetSummary, ...fields } = res.body;
      expect(fields).to.deep.equal(p);
      expect(milestones).to.deep.equal([]);
      expect(team).to.deep.equal([]);
      expect(budgetSummary).to.deep.equal({
        budget: 1000,
        actualCost: 250,
        forecastCost: 1200,
        remaining: 750,
        percentSpent: 25,
        costVariance: -200,
        scheduleVarianceDays: 10,
        currency: 'USD',
      });
    });

    it('answers null derived figures without budget or forecasts', async () => {
      const p = await makeProject(api);
      const res = await api.get('getProject', `/projects/${p.id}`);
      expect(res.body.budgetSummary).to.deep.equal({
        budget: null,
        actualCost: null,
        forecastCost: null,
        remaining: null,
        percentSpent: null,
        costVariance: null,
        scheduleVarianceDays: null,
        currency: 'USD',
      });
    });

    it('answers null for what depends on an unknown actual cost, not the whole budget and 0 %', async () => {
      const p = await makeProject(api, { budget: 1000, forecastCost: 1200 });
      const res = await api.get('getProject', `/projects/${p.id}`);
      expect(res.body.budgetSummary).to.include({
        budget: 1000,
        actualCost: null,
        remaining: null,
        percentSpent: null,
        costVariance: -200,
      });
      const known = await api.patch('updateProject', `/projects/${p.id}`, {
        body: { actualCost: 250, progress: 20 },
      });
      expect(known.body).to.include({ actualCost: 250, progress: 20 });
      expect((await api.get('getProject', `/projects/${p.id}`)).body.budgetSummary).to.include({
        remaining: 750,
        percentSpent: 25,
      });
      // null makes them unknown again (PATCH semantics: null clears a nullable field).
      const cleared = await api.patch('updateProject', `/projects/${p.id}`, {
        body: { actualCost: null, progress: null },
      });
      expect(cleared.body).to.include({ actualCost: null, progress: null });
    });

    it('rounds percentSpent to 2 decimals and reports an early forecast as negative days', async () => {
      const p = await makeProject(api, {
        budget: 3,
        actualCost: 1,
        endDate: '2026-12-31',
        forecastEndDate: '2026-12-26',
      });
      const res = await api.get('getProject', `/projects/${p.id}`);
      expect(res.body.budgetSummary).to.include({
        remaining: 2,
        percentSpent: 33.33,
        costVariance: null,
        scheduleVarianceDays: -5,
      });
    });

    it('answers 404 not_found for an unknown id', async () => {
      const id = randomUUID();
      const res = await api.get('getProject', `/projects/${id}`);
      const body = expectProblem(res, 404, 'not_found');
      expect(body.instance).to.equal(`/v1/projects/${id}`);
    });

    it('answers 404 (not 403) for another tenant’s project', async () => {
      const other = await server.createTenant();
      const theirs = await makeProject(client(server.baseUrl, other.keys.write));
      const res = await api.get('getProject', `/projects/${theirs.id}`);
      expectProblem(res, 404, 'not_found');
    });

    it('answers 400 naming the path parameter for a non-uuid id', async () => {
      const res = await api.get('getProject', '/projects/not-a-uuid');
      const body = expectProblem(res, 400, 'validation_failed');
      expect(fieldErrors(body)).to.include('path:id');
    });
  });

  describe('updateProject', () => {
    const full = () => ({
      code: uniq('UPD'),
      description: 'before',
      status: 'ON_TRACK',
      startDate: '2025-03-03',
      endDate: '2026-11-30',
      forecastEndDate: '2027-01-15',
      budget: 5000,
      forecastCost: 5500,
      actualCost: 1200,
      progress: 40,
      tags: ['a', 'b'],
    });

    it('changes only the fields in the body (seed rule 2)', async () => {
      const p = await makeProject(api, full());
      const res = await api.patch('updateProject', `/projects/${p.id}`, { body: { description: 'after' } });
      expect(res.status).to.equal(200);
      expect(res.body.description).to.equal('after');
      expect(res.body.version).to.equal(2);
      expect(res.headers.get('etag')).to.equal('"2"');
      expect(Date.parse(res.body.updatedAt)).to.be.at.least(Date.parse(p.updatedAt));
      const strip = ({ version: _v, updatedAt: _u, description: _d, ...rest }: any) => rest;
      expect(strip(res.body)).to.deep.equal(strip(p));
      const got = await api.get('getProject', `/projects/${p.id}`);
      const { milestones: _m, team: _t, budgetSummary: _b, ...stored } = got.body;
      expect(stored).to.deep.equal(res.body);
      expect(got.headers.get('etag')).to.equal('"2"');
    });

    it('treats an empty body as a no-op that keeps the version', async () => {
      const p = await makeProject(api, full());
      const res = await api.patch('updateProject', `/projects/${p.id}`, { body: {} });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal(p);
      expect(res.headers.get('etag')).to.equal('"1"');
    });

    it('keeps the version when the body repeats the current values', async () => {
      const p = await makeProject(api, full());
      const res = await api.patch('updateProject', `/projects/${p.id}`, {
        body: { name: p.name, tags: p.tags, budget: p.budget },
      });
      expect(res.body).to.deep.equal(p);
    });

    it('clears a nullable field with null', async () => {
      const p = await makeProject(api, full());
      const res = await api.patch('updateProject', `/projects/${p.id}`, {
        body: { budget: null, forecastEndDate: null, code: null },
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ budget: null, forecastEndDate: null, code: null, version: 2 });
      expect(res.body.description).to.equal('before');
      expect(res.body.forecastCost).to.equal(5500);
      const got = await api.get('getProject', `/projects/${p.id}`);
      expect(got.body).to.include({ budget: null, forecastEndDate: null, code: null });
      expect(got.body.budgetSummary).to.include({ remaining: null, scheduleVarianceDays: null });
    });

    it('replaces tags as a whole', async () => {
      const p = await makeProject(api, full());
      const res = await api.patch('updateProject', `/projects/${p.id}`, { body: { tags: ['c'] } });
      expect(res.body.tags).to.deep.equal(['c']);
    });

    it('answers 422 when the result has endDate before startDate, and changes nothing', async () => {
      const p = await makeProject(api, full());
      const res = await api.patch('updateProject', `/projects/${p.id}`, {
        body: { endDate: '2025-01-01', description: 'should not stick' },
      });
      const body = expectProblem(res, 422, 'validation_failed');
      expect(body.errors[0]).to.include({ location: 'body', path: '/endDate' });
      const moveStart = await api.patch('updateProject', `/projects/${p.id}`, {
        body: { startDate: '2027-01-01' },
      });
      expectProblem(moveStart, 422, 'validation_failed');
      const got = await api.get('getProject', `/projects/${p.id}`);
      const { milestones: _m, team: _t, budgetSummary: _b, ...stored } = got.body;
      expect(stored).to.deep.equal(p);
    });

    it('answers 409 conflict when changing code to another project’s code', async () => {
      const a = await makeProject(api, { code: uniq('A') });
      const b = await makeProject(api, { code: uniq('B') });
      const res = await api.patch('updateProject', `/projects/${b.id}`, { body: { code: a.code } });
      expectProblem(res, 409, 'conflict');
      const got = await api.get('getProject', `/projects/${b.id}`);
      expect(got.body.code).to.equal(b.code);
    });

    it('follows the status transitions', async () => {
      const p = await makeProject(api);
      const move = (status: string) => api.patch('updateProject', `/projects/${p.id}`, { body: { status } });
      const ok = async (status: string) => {
        const res = await move(status);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.status).to.equal(status);
        return res.body;
      };
      await ok('ON_TRACK');
      await ok('AT_RISK');
      await ok('OFF_TRACK');
      await ok('ON_HOLD');
      await ok('AT_RISK');
      const completed = await ok('COMPLETED');
      for (const to of ['AT_RISK', 'PLANNED', 'CANCELLED']) {
        const bad = await move(to);
        const body = expectProblem(bad, 409, 'invalid_transition');
        expect(body.detail).to.contain('COMPLETED');
      }
      const still = await api.get('getProject', `/projects/${p.id}`);
      expect(still.body.status).to.equal('COMPLETED');
      expect(still.body.version).to.equal(completed.version);
      await ok('ON_TRACK');
      await ok('CANCELLED');
      for (const to of ['ON_TRACK', 'COMPLETED', 'AT_RISK'])
        expectProblem(await move(to), 409, 'invalid_transition');
      const reopened = await ok('PLANNED');
      expect(reopened.version).to.equal(10);
    });

    it('accepts If-Match with the current ETag, a list containing it, or *', async () => {
      const p = await makeProject(api, full());
      const first = await api.patch('updateProject', `/projects/${p.id}`, {
        body: { name: 'v2' },
        headers: { 'If-Match': '"1"' },
      });
      expect(first.status).to.equal(200);
      expect(first.body).to.include({ name: 'v2', version: 2 });
      expect(first.headers.get('etag')).to.equal('"2"');

      const list = await api.patch('updateProject', `/projects/${p.id}`, {
        body: { name: 'v3' },
        headers: { 'If-Match': '"7", "2"' },
      });
      expect(list.status).to.equal(200);
      expect(list.body).to.include({ name: 'v3', version: 3 });

      const star = await api.patch('updateProject', `/projects/${p.id}`, {
        body: { name: 'v4' },
        headers: { 'If-Match': '*' },
      });
      expect(star.status).to.equal(200);
      expect(star.body).to.include({ name: 'v4', version: 4 });
      expect(star.headers.get('etag')).to.equal('"4"');
    });

    it('answers 412 precondition_failed for a stale If-Match, and writes nothing', async () => {
      const p = await makeProject(api, full());
      const first = await api.patch('updateProject', `/projects/${p.id}`, { body: { name: 'v2' } });
      expect(first.headers.get('etag')).to.equal('"2"');
      for (const ifMatch of ['"1"', '"99"', 'W/"2"']) {
        const stale = await api.patch('updateProject', `/projects/${p.id}`, {
          body: { name: 'lost update' },
          headers: { 'If-Match': ifMatch },
        });
        expectProblem(stale, 412, 'precondition_failed');
      }
      const after = await api.get('getProject', `/projects/${p.id}`);
      expect(after.body).to.include({ name: 'v2', version: 2 });
      expect(after.headers.get('etag')).to.equal('"2"');
    });

    it('names an invalid header as location header', async () => {
      const p = await makeProject(api);
      const res = await api.patch('updateProject', `/projects/${p.id}`, {
        body: { name: 'x' },
        headers: { 'If-Match': '' },
      });
      const body = expectProblem(res, 400, 'validation_failed');
      expect(body.errors[0].location).to.equal('header');
      expect(body.errors[0].path.toLowerCase()).to.equal('if-match');
    });

    it('answers 404 for an unknown id and for another tenant’s project (unchanged)', async () => {
      expectProblem(
        await api.patch('updateProject', `/projects/${randomUUID()}`, { body: { name: 'x' } }),
        404,
        'not_found',
      );
      const other = await server.createTenant();
      const otherApi = client(server.baseUrl, other.keys.write);
      const theirs = await makeProject(otherApi);
      const res = await api.patch('updateProject', `/projects/${theirs.id}`, { body: { name: 'hijack' } });
      expectProblem(res, 404, 'not_found');
      const got = await otherApi.get('getProject', `/projects/${theirs.id}`);
      expect(got.body.name).to.equal(theirs.name);
      expect(got.body.version).to.equal(1);
    });

    it('answers 403 forbidden for a read-only key (unchanged)', async () => {
      const p = await makeProject(api);
      const res = await client(server.baseUrl, tenant.keys.read).patch('updateProject', `/projects/${p.id}`, {
        body: { name: 'nope' },
      });
      const body = expectProblem(res, 403, 'forbidden');
      expect(body.detail).to.contain('"write"');
      const got = await api.get('getProject', `/projects/${p.id}`);
      expect(got.body.name).to.equal(p.name);
    });

    it('answers 400 for an unknown or read-only property and for a bad type', async () => {
      const p = await makeProject(api);
      for (const body of [{ colour: 'red' }, { version: 5 }, { progress: 'half' }, { status: 'DONE' }]) {
        const res = await api.patch('updateProject', `/projects/${p.id}`, { body });
        expectProblem(res, 400, 'validation_failed');
      }
      const got = await api.get('getProject', `/projects/${p.id}`);
      expect(got.body.version).to.equal(1);
    });
  });
});
