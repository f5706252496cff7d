import { expect } from 'chai';
import { todayIn } from '../../server/dates.js';
import type { TeamAllocationRow } from '../../server/repositories/team.js';
import { teamOf } from '../../server/services/team.js';

const row = (over: Partial<TeamAllocationRow>): TeamAllocationRow => ({
  resourceId: 'r1',
  resourceName: 'Zoë Park',
  resourceRole: 'Engineer',
  role: null,
  startDate: '2026-01-01',
  endDate: '2026-03-31',
  allocationPercent: 50,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('project team from allocations', () => {
  it('sums only the allocations active today, spans all of them, and takes the latest role', () => {
    const team = teamOf(
      [
        row({ startDate: '2026-01-01', endDate: '2026-03-31', allocationPercent: 50, role: 'Designer' }),
        row({ startDate: '2026-02-01', endDate: '2026-06-30', allocationPercent: 25.5, role: null }),
        row({ startDate: '2026-05-01', endDate: '2026-09-30', allocationPercent: 40, role: 'Site lead' }),
        row({
          resourceId: 'r2',
          resourceName: 'Amal Haddad',
          resourceRole: null,
          allocationPercent: 100,
          endDate: '2026-01-31',
        }),
      ],
      '2026-03-31',
    );
    expect(team).to.deep.equal([
      {
        resourceId: 'r2',
        name: 'Amal Haddad',
        role: null,
        allocationPercent: 0,
        startDate: '2026-01-01',
        endDate: '2026-01-31',
      },
      {
        resourceId: 'r1',
        name: 'Zoë Park',
        role: 'Site lead',
        allocationPercent: 75.5,
        startDate: '2026-01-01',
        endDate: '2026-09-30',
      },
    ]);
  });
  it('falls back to the resource role, and is empty without allocations', () => {
    expect(teamOf([row({})], '2026-01-01')[0]?.role).to.equal('Engineer');
    expect(teamOf([], '2026-01-01')).to.deep.equal([]);
  });
  it('reads today in the tenant’s time zone', () => {
    const instant = new Date('2026-03-01T03:00:00Z');
    expect(todayIn('UTC', instant)).to.equal('2026-03-01');
    expect(todayIn('America/New_York', instant)).to.equal('2026-02-28');
  });
});
