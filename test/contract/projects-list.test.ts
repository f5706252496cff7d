/**
 * Contract tests of listProjects: the envelope, paging and its Link headers, the filters, `sort`, `q` and
 * `tag`.
 */
import { expect } from 'chai';
import { apiPathOf, expectProblem, fieldErrors, parseLink } from '../support/assertions.js';
import { makeProject } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

describe('Projects: list', () => {
  const ctx = contractSuite();

  describe('listProjects', () => {
    it('answers an empty envelope for a new tenant, without a Link header', async () => {
      const res = await ctx.api.get('listProjects', '/projects');
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
      for (let i = 0; i < 7; i++) ids.push((await makeProject(ctx.api, { name: `Paged ${i}` })).id);

      const p1 = await ctx.api.get('listProjects', '/projects', { query: { limit: 3 } });
      expect(p1.status).to.equal(200);
      expect(p1.body.pagination).to.deep.equal({ limit: 3, offset: 0, total: 7, hasMore: true });
      expect(p1.body.data.map((p: any) => p.id)).to.deep.equal(ids.slice(0, 3));
      const l1 = parseLink(p1.headers.get('link'));
      expect(Object.keys(l1)).to.deep.equal(['next']);

      const p2 = await ctx.api.get('listProjects', apiPathOf(l1.next as string, ctx.server.baseUrl));
      expect(p2.status).to.equal(200);
      expect(p2.body.pagination).to.deep.equal({ limit: 3, offset: 3, total: 7, hasMore: true });
      expect(p2.body.data.map((p: any) => p.id)).to.deep.equal(ids.slice(3, 6));
      const l2 = parseLink(p2.headers.get('link'));
      expect(Object.keys(l2).sort()).to.deep.equal(['next', 'prev']);

      const p3 = await ctx.api.get('listProjects', apiPathOf(l2.next as string, ctx.server.baseUrl));
      expect(p3.status).to.equal(200);
      expect(p3.body.pagination).to.deep.equal({ limit: 3, offset: 6, total: 7, hasMore: false });
      expect(p3.body.data.map((p: any) => p.id)).to.deep.equal(ids.slice(6));
      const l3 = parseLink(p3.headers.get('link'));
      expect(Object.keys(l3)).to.deep.equal(['prev']);

      const back = await ctx.api.get('listProjects', apiPathOf(l3.prev as string, ctx.server.baseUrl));
      expect(back.body.pagination).to.deep.equal({ limit: 3, offset: 3, total: 7, hasMore: true });
      expect(back.body.data.map((p: any) => p.id)).to.deep.equal(ids.slice(3, 6));
      const prev1 = await ctx.api.get('listProjects', apiPathOf(l2.prev as string, ctx.server.baseUrl));
      expect(prev1.body.data.map((p: any) => p.id)).to.deep.equal(ids.slice(0, 3));
    });

    it('keeps the filter in Link URLs', async () => {
      for (let i = 0; i < 3; i++) await makeProject(ctx.api, { status: 'AT_RISK' });
      await makeProject(ctx.api, { status: 'ON_TRACK' });
      const res = await ctx.api.get('listProjects', '/projects', { query: { status: 'AT_RISK', limit: 2 } });
      expect(res.body.pagination).to.deep.equal({ limit: 2, offset: 0, total: 3, hasMore: true });
      const next = parseLink(res.headers.get('link')).next as string;
      expect(new URL(next).searchParams.get('status')).to.equal('AT_RISK');
      const p2 = await ctx.api.get('listProjects', apiPathOf(next, ctx.server.baseUrl));
      expect(p2.body.pagination).to.deep.equal({ limit: 2, offset: 2, total: 3, hasMore: false });
      expect(p2.body.data).to.have.length(1);
      expect(p2.body.data[0].status).to.equal('AT_RISK');
    });

    it('sends no Link header when everything fits in one page', async () => {
      for (let i = 0; i < 3; i++) await makeProject(ctx.api);
      const res = await ctx.api.get('listProjects', '/projects', { query: { limit: 3 } });
      expect(res.body.pagination).to.deep.equal({ limit: 3, offset: 0, total: 3, hasMore: false });
      expect(res.headers.get('link')).to.equal(null);
    });

    it('defaults limit to 25 and orders by createdAt then id', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 27; i++) ids.push((await makeProject(ctx.api)).id);
      const res = await ctx.api.get('listProjects', '/projects');
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
      const rest = await ctx.api.get('listProjects', '/projects', { query: { offset: 25 } });
      expect(rest.body.data.map((p: any) => p.id)).to.deep.equal(ids.slice(25));
    });

    it('restricts the list to the given status (seed rule 1)', async () => {
      const planned = await makeProject(ctx.api);
      const risky1 = await makeProject(ctx.api, { status: 'AT_RISK' });
      const onTrack = await makeProject(ctx.api, { status: 'ON_TRACK' });
      const risky2 = await makeProject(ctx.api, { status: 'AT_RISK' });
      const res = await ctx.api.get('listProjects', '/projects', { query: { status: 'AT_RISK' } });
      expect(res.status).to.equal(200);
      expect(res.body.data.map((p: any) => p.id)).to.deep.equal([risky1.id, risky2.id]);
      expect(res.body.pagination.total).to.equal(2);
      const planRes = await ctx.api.get('listProjects', '/projects', { query: { status: 'PLANNED' } });
      expect(planRes.body.data.map((p: any) => p.id)).to.deep.equal([planned.id]);
      const trackRes = await ctx.api.get('listProjects', '/projects', { query: { status: 'ON_TRACK' } });
      expect(trackRes.body.data.map((p: any) => p.id)).to.deep.equal([onTrack.id]);
      const none = await ctx.api.get('listProjects', '/projects', { query: { status: 'CANCELLED' } });
      expect(none.body).to.deep.equal({
        data: [],
        pagination: { limit: 25, offset: 0, total: 0, hasMore: false },
      });
    });

    for (const [name, query, field] of [
      ['limit 0', { limit: 0 }, 'limit'],
      ['limit 101', { limit: 101 }, 'limit'],
      ['offset -1', { offset: -1 }, 'offset'],
      ['status BOGUS', { status: 'BOGUS' }, 'status.0'],
      ['limit abc', { limit: 'abc' }, 'limit'],
    ] as const) {
      it(`answers 400 naming the query field for ${name}`, async () => {
        const res = await ctx.api.get('listProjects', '/projects', { query });
        const body = expectProblem(res, 400, 'validation_failed');
        expect(fieldErrors(body)).to.include(`query:${field}`);
      });
    }

    it('never lists another tenant’s projects', async () => {
      const mine = await makeProject(ctx.api);
      const other = await ctx.server.createTenant();
      const otherApi = ctx.as(other.keys.write);
      const theirs = await makeProject(otherApi);
      const res = await ctx.api.get('listProjects', '/projects');
      expect(res.body.data.map((p: any) => p.id)).to.deep.equal([mine.id]);
      const res2 = await otherApi.get('listProjects', '/projects');
      expect(res2.body.data.map((p: any) => p.id)).to.deep.equal([theirs.id]);
    });

    it('works with a read-only key', async () => {
      const p = await makeProject(ctx.api);
      const res = await ctx.reader.get('listProjects', '/projects');
      expect(res.status).to.equal(200);
      expect(res.body.data.map((x: any) => x.id)).to.deep.equal([p.id]);
    });

    it('filters on category, borough, managingAgency and clientAgency, item by item and ignoring case', async () => {
      const dep = await makeProject(ctx.api, {
        managingAgency: 'DEP',
        borough: 'Brooklyn',
        category: 'Sewers',
      });
      const both = await makeProject(ctx.api, {
        managingAgency: 'DEP',
        borough: 'Brooklyn, Queens',
        clientAgency: 'DEP, DOT',
      });
      const dot = await makeProject(ctx.api, { managingAgency: 'DOT', borough: 'Brooklyn' });
      await makeProject(ctx.api);
      const ids = async (query: Record<string, string>) =>
        (await ctx.api.get('listProjects', '/projects', { query })).body.data.map((p: any) => p.id);
      expect(await ids({ managingAgency: 'DEP', borough: 'Brooklyn' })).to.deep.equal([dep.id, both.id]);
      expect(await ids({ borough: 'queens' })).to.deep.equal([both.id]);
      expect(await ids({ clientAgency: ' dot ' })).to.deep.equal([both.id]);
      expect(await ids({ category: 'Sewers', status: 'PLANNED' })).to.deep.equal([dep.id]);
      expect(await ids({ borough: 'Brooklyn' })).to.deep.equal([dep.id, both.id, dot.id]);
      expect(await ids({ borough: 'Bronx' })).to.deep.equal([]);
      const res = await ctx.api.get('listProjects', '/projects', {
        query: { managingAgency: 'DEP', limit: 1 },
      });
      expect(res.body.pagination).to.deep.equal({ limit: 1, offset: 0, total: 2, hasMore: true });
      expect(parseLink(res.headers.get('link')).next).to.contain('managingAgency=DEP');
      // A PATCH moves the project between filters; null takes it out.
      await ctx.api.patch('updateProject', `/projects/${dot.id}`, { body: { borough: 'Staten Island' } });
      expect(await ids({ borough: 'Brooklyn' })).to.deep.equal([dep.id, both.id]);
      expect(await ids({ borough: 'staten island' })).to.deep.equal([dot.id]);
      await ctx.api.patch('updateProject', `/projects/${dep.id}`, { body: { managingAgency: null } });
      expect(await ids({ managingAgency: 'DEP' })).to.deep.equal([both.id]);
      // Another tenant's projects never match.
      const otherApi = ctx.as((await ctx.server.createTenant()).keys.write);
      await makeProject(otherApi, { managingAgency: 'DEP' });
      expect(await ids({ managingAgency: 'DEP' })).to.deep.equal([both.id]);
    });

    it('refuses an empty descriptive filter (400)', async () => {
      const res = await ctx.api.get('listProjects', '/projects', { query: { borough: '' } });
      expectProblem(res, 400, 'validation_failed');
    });
  });

  describe('listProjects: sort, q and tag', () => {
    const ids = async (query: Record<string, string | number>) => {
      const res = await ctx.api.get('listProjects', '/projects', { query });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.data.map((p: any) => p.id) as string[];
    };
    const names = async (query: Record<string, string | number>) =>
      (await ctx.api.get('listProjects', '/projects', { query })).body.data.map(
        (p: any) => p.name,
      ) as string[];

    it('sorts by name ignoring case, ascending and with "-" descending', async () => {
      for (const name of ['beta', 'Alpha', 'gamma works', 'Delta', 'GAMMA'])
        await makeProject(ctx.api, { name });
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
      const a = await makeProject(ctx.api, { budget: 100, forecastEndDate: '2027-03-01' });
      const b = await makeProject(ctx.api, { forecastEndDate: '2026-11-30' });
      const c = await makeProject(ctx.api, { budget: 50 });
      const d = await makeProject(ctx.api, { budget: 100, forecastEndDate: '2027-03-01' });
      expect(await ids({ sort: 'budget' })).to.deep.equal([c.id, a.id, d.id, b.id]);
      expect(await ids({ sort: '-budget' })).to.deep.equal([d.id, a.id, c.id, b.id]);
      expect(await ids({ sort: 'forecastEndDate' })).to.deep.equal([b.id, a.id, d.id, c.id]);
      expect(await ids({ sort: '-forecastEndDate' })).to.deep.equal([d.id, a.id, b.id, c.id]);
    });

    it('sorts by endDate and createdAt, and pages a sort with Link headers that keep it', async () => {
      const late = await makeProject(ctx.api, { endDate: '2028-06-30' });
      const early = await makeProject(ctx.api, { endDate: '2026-02-28' });
      const mid = await makeProject(ctx.api, { endDate: '2027-01-31' });
      expect(await ids({ sort: 'endDate' })).to.deep.equal([early.id, mid.id, late.id]);
      expect(await ids({ sort: '-endDate' })).to.deep.equal([late.id, mid.id, early.id]);
      expect(await ids({ sort: 'createdAt' })).to.deep.equal([late.id, early.id, mid.id]);
      expect(await ids({ sort: '-createdAt' })).to.deep.equal([mid.id, early.id, late.id]);
      const first = await ctx.api.get('listProjects', '/projects', { query: { sort: '-endDate', limit: 2 } });
      expect(first.body.data.map((p: any) => p.id)).to.deep.equal([late.id, mid.id]);
      const next = parseLink(first.headers.get('link')).next as string;
      expect(next).to.contain('sort=-endDate');
      const second = await ctx.api.get('listProjects', apiPathOf(next, ctx.server.baseUrl));
      expect(second.body.data.map((p: any) => p.id)).to.deep.equal([early.id]);
    });

    it('refuses a sort field the spec does not list (400 naming the parameter)', async () => {
      for (const sort of ['progress', '-actualCost', 'name,budget', '+name', '']) {
        const body = expectProblem(
          await ctx.api.get('listProjects', '/projects', { query: { sort } }),
          400,
          'validation_failed',
        );
        expect(fieldErrors(body), sort).to.include('query:sort');
      }
    });

    it('q matches name, code or description anywhere, ignoring case', async () => {
      const bridge = await makeProject(ctx.api, {
        name: 'Brooklyn Bridge Promenade Rehabilitation',
        code: 'DOT-BBR-14',
      });
      const tunnel = await makeProject(ctx.api, {
        name: 'Flushing Tunnel',
        code: 'GWN-7',
        description: 'Reactivation of the 1911 pumping station under the canal.',
      });
      const school = await makeProject(ctx.api, {
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
      const res = await ctx.api.get('listProjects', '/projects', {
        query: { q: 'n', sort: '-name', limit: 2 },
      });
      expect(res.body.pagination.total).to.equal(3);
      expect(res.body.data.map((p: any) => p.id)).to.deep.equal([school.id, tunnel.id]);
      expect(await ids({ q: 'tunnel', status: 'AT_RISK' })).to.deep.equal([]);
      // A rename moves the project in and out of the matches; other tenants' projects never match.
      await ctx.api.patch('updateProject', `/projects/${tunnel.id}`, {
        body: { name: 'Gowanus Canal Flushing Tunnel' },
      });
      expect(await ids({ q: 'gowanus' })).to.deep.equal([tunnel.id]);
      await ctx.api.patch('updateProject', `/projects/${tunnel.id}`, { body: { description: null } });
      expect(await ids({ q: 'pumping' })).to.deep.equal([]);
      const otherApi = ctx.as((await ctx.server.createTenant()).keys.write);
      await makeProject(otherApi, { name: 'Brooklyn Bridge Park' });
      expect(await ids({ q: 'brooklyn bridge' })).to.deep.equal([bridge.id]);
    });

    it('tag restricts to projects carrying the tag, ignoring case, and follows updates', async () => {
      const a = await makeProject(ctx.api, { tags: ['Resilience', 'Sandy'] });
      const b = await makeProject(ctx.api, { tags: ['resilience'] });
      await makeProject(ctx.api, { tags: ['schools'] });
      expect(await ids({ tag: 'resilience' })).to.deep.equal([a.id, b.id]);
      expect(await ids({ tag: ' SANDY ' })).to.deep.equal([a.id]);
      expect(await ids({ tag: 'sand' })).to.deep.equal([]);
      await ctx.api.patch('updateProject', `/projects/${a.id}`, { body: { tags: ['Sandy'] } });
      expect(await ids({ tag: 'resilience' })).to.deep.equal([b.id]);
      expect(await ids({ tag: 'resilience', q: 'nope' })).to.deep.equal([]);
      expectProblem(
        await ctx.api.get('listProjects', '/projects', { query: { tag: '' } }),
        400,
        'validation_failed',
      );
      expectProblem(
        await ctx.api.get('listProjects', '/projects', { query: { q: '' } }),
        400,
        'validation_failed',
      );
    });
  });
});
