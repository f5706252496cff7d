/**
 * The team of a project as getProject shows it, derived from the allocations: each allocated resource once, with
 * today's allocation, the span of its allocations and its latest role.
 */
import { expect } from 'chai';
import { ManualClock } from '../../server/clock.js';
import { contractSuite } from '../support/suite.js';

describe('project team (from allocations)', () => {
  const ctx = contractSuite({ clock: new ManualClock('2026-03-15T12:00:00.000Z') });

  it('shows each allocated resource once, with today’s allocation, span and latest role', async () => {
    const { api } = ctx;
    const project = (
      await api.post('createProject', '/projects', {
        body: { name: 'Team tower', startDate: '2026-01-01', endDate: '2026-12-31' },
      })
    ).body;
    const zoe = (
      await api.post('createResource', '/resources', { body: { name: 'Zoë Park', role: 'Engineer' } })
    ).body;
    const amal = (await api.post('createResource', '/resources', { body: { name: 'Amal Haddad' } })).body;
    const allocate = (
      resourceId: string,
      startDate: string,
      endDate: string,
      allocationPercent: number,
      role?: string,
    ) =>
      api.post('createAllocation', '/allocations', {
        body: {
          resourceId,
          projectId: project.id,
          startDate,
          endDate,
          allocationPercent,
          ...(role ? { role } : {}),
        },
      });
    await allocate(zoe.id, '2026-01-01', '2026-03-31', 50, 'Designer');
    await allocate(zoe.id, '2026-03-01', '2026-06-30', 30, 'Site lead');
    await allocate(amal.id, '2026-04-01', '2026-05-31', 100);
    const detail = await api.get('getProject', `/projects/${project.id}`);
    expect(detail.status).to.equal(200);
    expect(detail.body.team).to.deep.equal([
      {
        resourceId: amal.id,
        name: 'Amal Haddad',
        role: null,
        allocationPercent: 0,
        startDate: '2026-04-01',
        endDate: '2026-05-31',
      },
      {
        resourceId: zoe.id,
        name: 'Zoë Park',
        role: 'Site lead',
        allocationPercent: 80,
        startDate: '2026-01-01',
        endDate: '2026-06-30',
      },
    ]);
  });
});
