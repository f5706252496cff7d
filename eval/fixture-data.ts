/**
 * The records of the eval's fixture tenants, written by hand (the golden set, eval/golden/, names them by title and
 * states their values literally): the PMO's people, projects, allocations (two people over-allocated), risks,
 * issues, milestones and status reports, and the twin tenant's project of the same name. eval/fixture.ts creates
 * them through the API.
 */

/** A project of the fixture; `pm` names a person of {@link PEOPLE}. */
export interface FixtureProject {
  name: string;
  code: string;
  description: string;
  status: string;
  startDate: string;
  endDate: string;
  forecastEndDate?: string;
  budget?: number;
  forecastCost?: number;
  actualCost?: number;
  progress?: number;
  tags: string[];
  pm?: string;
}

export const PEOPLE = [
  { name: 'Maria Alvarez', role: 'Project Manager', skills: ['wastewater', 'procurement'] },
  { name: 'Dev Patel', role: 'Structural Engineer', skills: ['steel', 'seismic retrofit'] },
  { name: 'Li Wei', role: 'Electrical Engineer', skills: ['signalling', 'power'] },
  { name: 'Priya Nair', role: 'Data Architect', skills: ['postgres', 'data migration'] },
  { name: 'Sam Okafor', role: 'Scheduler', skills: ['primavera', 'critical path'] },
  { name: 'Tom Becker', role: 'Site Supervisor', skills: ['marine works', 'dredging'] },
] as const;

export const PROJECTS: FixtureProject[] = [
  {
    name: 'Gowanus Facilities Upgrade',
    code: 'HPX-101',
    description: 'Upgrade of the Gowanus pumping station: new sluice gates, dewatering and odor control.',
    status: 'AT_RISK',
    startDate: '2025-02-01',
    endDate: '2026-12-31',
    forecastEndDate: '2027-03-31',
    budget: 200_000_000,
    forecastCost: 230_000_000,
    actualCost: 91_250_000.5,
    progress: 45,
    tags: ['Brooklyn', 'Wastewater'],
    pm: 'Maria Alvarez',
  },
  {
    name: 'Harbor Ferry Terminal Rehabilitation',
    code: 'HPX-102',
    description: 'Rehabilitation of the ferry terminal piers, gangways and waiting room.',
    status: 'ON_TRACK',
    startDate: '2025-06-01',
    endDate: '2027-06-30',
    forecastEndDate: '2027-06-30',
    budget: 48_500_000,
    forecastCost: 47_900_000,
    actualCost: 12_000_000,
    progress: 30,
    tags: ['Staten Island', 'Transportation'],
    pm: 'Tom Becker',
  },
  {
    name: 'Riverside Data Center Migration',
    code: 'HPX-103',
    description: 'Move of the city records systems from the Riverside data center to the cloud region.',
    status: 'OFF_TRACK',
    startDate: '2025-09-01',
    endDate: '2026-09-30',
    forecastEndDate: '2027-03-31',
    budget: 12_000_000,
    forecastCost: 15_600_000,
    actualCost: 7_400_000,
    progress: 55,
    tags: ['Manhattan', 'IT'],
    pm: 'Priya Nair',
  },
  {
    name: 'Northside Library Expansion',
    code: 'HPX-104',
    description: 'A new children’s wing and a rooftop reading garden for the Northside branch library.',
    status: 'PLANNED',
    startDate: '2026-09-01',
    endDate: '2028-08-31',
    budget: 8_750_000,
    tags: ['Bronx', 'Libraries'],
  },
  {
    name: 'Eastline Light Rail Signals',
    code: 'HPX-105',
    description:
      'Replacement of the signalling system of the Eastline light rail with communications-based control.',
    status: 'AT_RISK',
    startDate: '2025-03-01',
    endDate: '2028-12-31',
    forecastEndDate: '2029-04-30',
    budget: 95_000_000,
    forecastCost: 99_750_000,
    actualCost: 20_500_000,
    progress: 20,
    tags: ['Queens', 'Transportation'],
    pm: 'Sam Okafor',
  },
  {
    name: 'Citywide Water Meter Upgrade',
    code: 'HPX-106',
    description: 'Smart water meters for every metered building, read over a radio network.',
    status: 'ON_HOLD',
    startDate: '2026-01-15',
    endDate: '2027-12-31',
    tags: ['Citywide', 'Wastewater'],
  },
];

/** Allocations: Dev Patel is at 120 % from 2026-03-01 to 2026-08-31; Priya Nair at 130 % from 2026-06-01 to 2026-07-31. */
export const ALLOCATIONS = [
  {
    person: 'Dev Patel',
    project: 'Gowanus Facilities Upgrade',
    from: '2026-01-01',
    to: '2026-12-31',
    percent: 60,
  },
  {
    person: 'Dev Patel',
    project: 'Harbor Ferry Terminal Rehabilitation',
    from: '2026-03-01',
    to: '2026-08-31',
    percent: 60,
  },
  {
    person: 'Priya Nair',
    project: 'Riverside Data Center Migration',
    from: '2026-01-01',
    to: '2026-09-30',
    percent: 80,
  },
  {
    person: 'Priya Nair',
    project: 'Citywide Water Meter Upgrade',
    from: '2026-06-01',
    to: '2026-07-31',
    percent: 50,
  },
  {
    person: 'Li Wei',
    project: 'Eastline Light Rail Signals',
    from: '2026-01-01',
    to: '2026-12-31',
    percent: 50,
  },
  {
    person: 'Li Wei',
    project: 'Riverside Data Center Migration',
    from: '2026-01-01',
    to: '2026-06-30',
    percent: 30,
  },
  {
    person: 'Maria Alvarez',
    project: 'Gowanus Facilities Upgrade',
    from: '2025-02-01',
    to: '2026-12-31',
    percent: 100,
  },
  // Over-allocated only in the past (before the eval's today, 2026-05-15): not a current conflict.
  {
    person: 'Sam Okafor',
    project: 'Eastline Light Rail Signals',
    from: '2025-03-01',
    to: '2025-12-31',
    percent: 70,
  },
  {
    person: 'Sam Okafor',
    project: 'Riverside Data Center Migration',
    from: '2025-09-01',
    to: '2025-12-31',
    percent: 40,
  },
];

export const RISKS = [
  {
    project: 'Gowanus Facilities Upgrade',
    title: 'Contaminated sediment disposal costs',
    likelihood: 4,
    impact: 5,
    status: 'OPEN',
    description: 'Dredged canal sediment may need disposal as hazardous waste at three times the unit cost.',
  },
  {
    project: 'Gowanus Facilities Upgrade',
    title: 'Utility conflicts delay excavation',
    likelihood: 3,
    impact: 4,
    status: 'MITIGATING',
    mitigation: 'Early utility survey and relocation agreements with the utilities.',
  },
  {
    project: 'Gowanus Facilities Upgrade',
    title: 'Permit renewal lapses',
    likelihood: 2,
    impact: 2,
    status: 'OPEN',
  },
  {
    project: 'Riverside Data Center Migration',
    title: 'Legacy database cutover fails',
    likelihood: 4,
    impact: 4,
    status: 'OPEN',
    description: 'The mainframe export cannot be replayed within the weekend cutover window.',
  },
  {
    project: 'Riverside Data Center Migration',
    title: 'Vendor licensing cost increase',
    likelihood: 3,
    impact: 3,
    status: 'ACCEPTED',
  },
  {
    project: 'Eastline Light Rail Signals',
    title: 'Signal supplier insolvency',
    likelihood: 2,
    impact: 5,
    status: 'CLOSED',
  },
  {
    project: 'Eastline Light Rail Signals',
    title: 'Asbestos in signal huts',
    likelihood: 3,
    impact: 5,
    status: 'OPEN',
    description: 'Asbestos insulation was found in two of the signal huts along the eastern segment.',
    mitigation: 'Licensed abatement before any cabling work.',
  },
  {
    project: 'Harbor Ferry Terminal Rehabilitation',
    title: 'Storm surge damages the pier during works',
    likelihood: 2,
    impact: 4,
    status: 'OPEN',
    mitigation: 'Schedule marine works outside the hurricane season.',
  },
];

export const ISSUES = [
  {
    project: 'Gowanus Facilities Upgrade',
    title: 'Dewatering pump failure',
    priority: 'HIGH',
    status: 'OPEN',
    dueDate: '2026-05-01',
    description: 'Two of the four dewatering pumps failed; the pit floods overnight.',
  },
  {
    project: 'Gowanus Facilities Upgrade',
    title: 'Late delivery of sluice gates',
    priority: 'MEDIUM',
    status: 'IN_PROGRESS',
    description: 'The fabricator reports a ten week delay on the sluice gates.',
  },
  {
    project: 'Riverside Data Center Migration',
    title: 'Firewall rules block replication',
    priority: 'CRITICAL',
    status: 'OPEN',
    dueDate: '2026-05-20',
  },
  {
    project: 'Eastline Light Rail Signals',
    title: 'Track access windows cancelled',
    priority: 'HIGH',
    status: 'RESOLVED',
  },
];

export const MILESTONES = [
  { project: 'Gowanus Facilities Upgrade', name: 'Dewatering complete', dueDate: '2026-03-31' },
  { project: 'Gowanus Facilities Upgrade', name: 'Sluice gate installation', dueDate: '2026-09-30' },
  {
    project: 'Riverside Data Center Migration',
    name: 'Cutover rehearsal',
    dueDate: '2026-04-15',
    status: 'MISSED',
  },
  { project: 'Riverside Data Center Migration', name: 'Go-live', dueDate: '2026-10-01' },
  {
    project: 'Harbor Ferry Terminal Rehabilitation',
    name: 'Pier demolition complete',
    dueDate: '2026-02-28',
    status: 'COMPLETED',
  },
  { project: 'Eastline Light Rail Signals', name: 'Signal design approval', dueDate: '2026-06-15' },
];

/** Status reports, submitted oldest first (each is the newest when submitted, so each moves the project's status). */
export const STATUS_REPORTS = [
  {
    project: 'Gowanus Facilities Upgrade',
    asOf: '2026-01-31',
    status: 'ON_TRACK',
    phase: 'Construction',
    summary: 'Excavation of the pump pit finished on schedule.',
  },
  {
    project: 'Gowanus Facilities Upgrade',
    asOf: '2026-04-30',
    status: 'AT_RISK',
    phase: 'Construction',
    summary: 'Dewatering pumps replaced after two failures; the sluice gate fabrication runs ten weeks late.',
  },
];

/** The twin tenant: the same project name (and a risk of the same title) with other values. */
export const TWIN_PROJECT: FixtureProject = {
  name: 'Gowanus Facilities Upgrade',
  code: 'TWN-1',
  description: 'A different tenant’s project of the same name: sluice gates and odor control.',
  status: 'OFF_TRACK',
  startDate: '2024-01-01',
  endDate: '2025-12-31',
  forecastEndDate: '2026-10-31',
  budget: 1_000_000,
  forecastCost: 1_900_000,
  tags: ['Brooklyn', 'Wastewater'],
};
