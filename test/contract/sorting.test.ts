/**
 * The `sort` convention on lists (docs/design.md and the spec, "Sorting and searching"): `field` ascending,
 * `-field` descending, `id` breaking ties in the same direction, anything outside the list's enum refused with 400.
 * The projects' sorts, `q` and `tag` are in projects.test.ts; these are the other lists, and a spec-driven pass
 * over every list with a `sort` parameter.
 */
import { expect } from 'chai';
import { loadSpec } from '../../server/http/spec.js';
import { expectProblem, fieldErrors } from '../support/assertions.js';
import { makeProject, makeRisk } from '../support/records.js';
import { TEST_DB } from '../support/server.js';
import { contractSuite } from '../support/suite.js';

type Json = Record<string, unknown>;

describe(`sort on lists (${TEST_DB})`, () => {
  const ctx = contractSuite();

  const idsOf = (res: { status: number; body: any }): string[] => {
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data.map((r: { id: string }) => r.id);
  };

  it('risks: -score lists the highest likelihood × impact first, ties by id', async () => {
    const project = await makeProject(ctx.api);
    const low = await makeRisk(ctx.api, project.id, { likelihood: 1, impact: 1 });
    const top = await makeRisk(ctx.api, project.id, { likelihood: 5, impact: 5 });
    const mid = await makeRisk(ctx.api, project.id, { likelihood: 3, impact: 4 });
    const midToo = await makeRisk(ctx.api, project.id, { likelihood: 4, impact: 3 });
    const list = async (sort: string) => idsOf(await ctx.api.get('listRisks', '/risks', { query: { sort } }));
    expect(await list('-score')).to.deep.equal([top.id, midToo.id, mid.id, low.id]);
    expect(await list('score')).to.deep.equal([low.id, mid.id, midToo.id, top.id]);
    expect(await list('-createdAt')).to.deep.equal([midToo.id, mid.id, top.id, low.id]);
    // With a filter: the order holds within the filtered rows.
    const res = await ctx.api.get('listRisks', '/risks', { query: { sort: '-score', severity: 'HIGH' } });
    expect(idsOf(res)).to.deep.equal([midToo.id, mid.id]);
  });

  it('issues: -priority lists CRITICAL, HIGH, MEDIUM, LOW (priority order, not alphabetical)', async () => {
    const project = await makeProject(ctx.api);
    const made: Record<string, string> = {};
    for (const priority of ['LOW', 'CRITICAL', 'MEDIUM', 'HIGH']) {
      const res = await ctx.api.post('createIssue', '/issues', {
        body: { projectId: project.id, title: `A ${priority} issue`, priority },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      made[priority] = res.body.id;
    }
    const list = async (sort: string) =>
      idsOf(await ctx.api.get('listIssues', '/issues', { query: { sort } }));
    expect(await list('-priority')).to.deep.equal(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'].map((p) => made[p]));
    expect(await list('priority')).to.deep.equal(['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'].map((p) => made[p]));
  });

  it("milestones: a project's milestones by dueDate either way", async () => {
    const project = await makeProject(ctx.api);
    const ids: Record<string, string> = {};
    for (const dueDate of ['2026-09-30', '2026-03-31', '2026-06-30']) {
      const res = await ctx.api.post('createMilestone', `/projects/${project.id}/milestones`, {
        body: { name: `Due ${dueDate}`, dueDate },
      });
      expect(res.status).to.equal(201);
      ids[dueDate] = res.body.id;
    }
    const list = async (sort: string) =>
      idsOf(
        await ctx.api.get('listProjectMilestones', `/projects/${project.id}/milestones`, { query: { sort } }),
      );
    expect(await list('dueDate')).to.deep.equal(
      ['2026-03-31', '2026-06-30', '2026-09-30'].map((d) => ids[d]),
    );
    expect(await list('-dueDate')).to.deep.equal(
      ['2026-09-30', '2026-06-30', '2026-03-31'].map((d) => ids[d]),
    );
  });

  it('resources: by name ignoring case; allocations: by startDate', async () => {
    const ids: Record<string, string> = {};
    for (const name of ['zoe Quinn', 'Adam Ruiz', 'maria Lopez', 'Bea Chen']) {
      const res = await ctx.api.post('createResource', '/resources', { body: { name } });
      expect(res.status).to.equal(201);
      ids[name] = res.body.id;
    }
    const resources = async (sort: string) =>
      idsOf(await ctx.api.get('listResources', '/resources', { query: { sort } }));
    const alphabetical = ['Adam Ruiz', 'Bea Chen', 'maria Lopez', 'zoe Quinn'].map((n) => ids[n]);
    expect(await resources('name')).to.deep.equal(alphabetical);
    expect(await resources('-name')).to.deep.equal([...alphabetical].reverse());

    const project = await makeProject(ctx.api);
    const starts: Record<string, string> = {};
    for (const startDate of ['2026-05-04', '2026-01-05', '2026-03-02']) {
      const res = await ctx.api.post('createAllocation', '/allocations', {
        body: {
          resourceId: ids['Adam Ruiz'],
          projectId: project.id,
          startDate,
          endDate: '2026-12-31',
          allocationPercent: 20,
        },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      starts[startDate] = res.body.id;
    }
    const allocations = async (query: Record<string, string>) =>
      idsOf(await ctx.api.get('listAllocations', '/allocations', { query }));
    const byStart = ['2026-01-05', '2026-03-02', '2026-05-04'].map((d) => starts[d]);
    expect(await allocations({ sort: 'startDate' })).to.deep.equal(byStart);
    expect(await allocations({ sort: '-startDate' })).to.deep.equal([...byStart].reverse());
    expect(await allocations({ sort: 'startDate', to: '2026-04-01' })).to.deep.equal(byStart.slice(0, 2));
  });

  it('audit logs: -occurredAt lists the newest entry first', async () => {
    for (let i = 0; i < 3; i++) await makeProject(ctx.api, { name: `Audited ${i}` });
    const oldest = idsOf(await ctx.admin.get('listAuditLogs', '/audit-logs', { query: { limit: 100 } }));
    const newest = idsOf(
      await ctx.admin.get('listAuditLogs', '/audit-logs', { query: { sort: '-occurredAt', limit: 100 } }),
    );
    expect(oldest.length).to.be.greaterThan(2);
    expect(newest).to.deep.equal([...oldest].reverse());
    const page = await ctx.admin.get('listAuditLogs', '/audit-logs', {
      query: { sort: '-occurredAt', limit: 1 },
    });
    expect(page.body.data[0].id).to.equal(oldest[oldest.length - 1]);
    expect(page.body.data[0].resourceType).to.equal('project');
  });

  it('every list with a `sort` answers 200 for each value of its enum and 400 for anything else', async () => {
    const project = await makeProject(ctx.api);
    const { document } = loadSpec();
    const deref = (node: Json): Json => {
      const ref = node.$ref as string | undefined;
      return ref
        ? deref(
            ref
              .split('/')
              .slice(1)
              .reduce<Json>((o, k) => o[k] as Json, document as Json),
          )
        : node;
    };
    let lists = 0;
    for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
      const op = item.get as Json | undefined;
      const sort = ((op?.parameters as Json[] | undefined) ?? []).map(deref).find((p) => p.name === 'sort');
      if (!op || !sort) continue;
      const values = deref(sort.schema as Json).enum as string[];
      const concrete = path.replace('{id}', project.id);
      const operationId = op.operationId as never;
      let answered = 0;
      for (const value of values) {
        const res = await ctx.admin.get(operationId, concrete, { query: { sort: value } });
        if (res.status === 501) break;
        expect(res.status, `${path}?sort=${value}`).to.equal(200);
        answered++;
      }
      if (answered === 0) continue;
      lists++;
      for (const bad of ['id', `-${values[0]}-`, 'createdAt,id', ' createdAt']) {
        const res = await ctx.admin.get(operationId, concrete, { query: { sort: bad } });
        expect(fieldErrors(expectProblem(res, 400, 'validation_failed')), `${path}?sort=${bad}`).to.include(
          'query:sort',
        );
      }
    }
    expect(lists).to.be.greaterThanOrEqual(7);
  });
});
