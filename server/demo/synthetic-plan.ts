/**
 * The synthetic demo portfolio (docs/agents.md, Demo tenants): an engineering firm's projects, people with roles,
 * skills and weekly capacity, allocations (some people deliberately booked above 100 %), status reports through
 * the phases, milestones (some missed), issues, and risks whose likelihood, impact and status change over time.
 * Every value is drawn by `@faker-js/faker` seeded with {@link SYNTHETIC_SEED}, and every date is an offset from
 * the anchor date, so the same anchor gives the same plan. Pure: ./synthetic.ts writes the plan through the
 * services. Everything in it is invented.
 */
import { en, Faker } from '@faker-js/faker';
import { addDays, addMonths } from '../dates.js';

/** The faker seed: the same plan on every start. */
export const SYNTHETIC_SEED = 20261126;

type ProjectStatus = 'PLANNED' | 'ON_TRACK' | 'AT_RISK' | 'OFF_TRACK' | 'ON_HOLD' | 'COMPLETED';
type Level = 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';

export interface PlannedPerson {
  key: number;
  name: string;
  email: string;
  role: string;
  skills: string[];
  capacityHoursPerWeek: number;
  costRatePerHour: number;
}

export interface PlannedReport {
  asOf: string;
  status: ProjectStatus;
  phase: string;
  forecastEndDate: string;
  forecastCost: number;
  actualCost: number;
  progress: number;
  summary: string;
}

export interface PlannedRisk {
  title: string;
  description: string;
  mitigation: string;
  ownerKey: number;
  /** The risk as created, then each later state (an update each): its history. */
  states: { likelihood: number; impact: number; status: 'OPEN' | 'MITIGATING' | 'ACCEPTED' | 'CLOSED' }[];
  dueDate: string;
}

export interface PlannedProject {
  code: string;
  name: string;
  description: string;
  category: string;
  managingAgency: string;
  clientAgency: string;
  tags: string[];
  startDate: string;
  endDate: string;
  budget: number;
  managerKey: number;
  reports: PlannedReport[];
  milestones: { name: string; dueDate: string; status: 'PENDING' | 'COMPLETED' | 'MISSED' }[];
  issues: {
    title: string;
    description: string;
    priority: Level;
    status: 'OPEN' | 'IN_PROGRESS' | 'RESOLVED';
    assigneeKey: number;
    dueDate: string;
  }[];
  risks: PlannedRisk[];
  allocations: {
    personKey: number;
    startDate: string;
    endDate: string;
    allocationPercent: number;
    role: string;
  }[];
}

export interface SyntheticPlan {
  people: PlannedPerson[];
  projects: PlannedProject[];
}

const ROLES: { role: string; skills: string[]; rate: [number, number] }[] = [
  {
    role: 'Project Manager',
    skills: ['Scheduling', 'Cost control', 'Stakeholder management', 'Contracts', 'Risk management'],
    rate: [110, 170],
  },
  {
    role: 'Structural Engineer',
    skills: ['Steel design', 'Concrete design', 'Finite element analysis', 'Seismic design', 'Eurocodes'],
    rate: [90, 150],
  },
  {
    role: 'Civil Engineer',
    skills: ['Highway design', 'Drainage', 'Earthworks', 'Hydraulics', 'AutoCAD Civil 3D'],
    rate: [85, 140],
  },
  {
    role: 'Geotechnical Engineer',
    skills: ['Foundations', 'Slope stability', 'Site investigation', 'Tunnelling'],
    rate: [90, 150],
  },
  {
    role: 'MEP Engineer',
    skills: ['HVAC', 'Electrical design', 'Plumbing', 'Energy modelling', 'Fire protection'],
    rate: [85, 145],
  },
  {
    role: 'Environmental Scientist',
    skills: ['Permitting', 'Ecology surveys', 'Water quality', 'Noise assessment'],
    rate: [75, 125],
  },
  { role: 'BIM Coordinator', skills: ['Revit', 'Navisworks', 'Clash detection', 'IFC'], rate: [70, 110] },
  {
    role: 'Quantity Surveyor',
    skills: ['Estimating', 'Cost control', 'Procurement', 'Contracts'],
    rate: [75, 120],
  },
  {
    role: 'Site Supervisor',
    skills: ['Construction supervision', 'Health and safety', 'Quality control'],
    rate: [65, 105],
  },
  { role: 'Drafter', skills: ['AutoCAD', 'Revit', 'Detailing'], rate: [50, 80] },
];

const KINDS: { kind: string; category: string }[] = [
  { kind: 'Bridge Rehabilitation', category: 'Transport' },
  { kind: 'Highway Interchange', category: 'Transport' },
  { kind: 'Light Rail Extension', category: 'Transport' },
  { kind: 'Water Treatment Plant Upgrade', category: 'Water' },
  { kind: 'Wastewater Pumping Station', category: 'Water' },
  { kind: 'Flood Defence Scheme', category: 'Water' },
  { kind: 'Solar Farm Substation', category: 'Energy' },
  { kind: 'Wind Farm Grid Connection', category: 'Energy' },
  { kind: 'Hospital Wing', category: 'Buildings' },
  { kind: 'School Campus', category: 'Buildings' },
  { kind: 'Office Tower Retrofit', category: 'Buildings' },
  { kind: 'Brownfield Remediation', category: 'Environment' },
];

const OFFICES = ['Chicago office', 'Denver office', 'Atlanta office'];
const PHASES = ['Scoping/Planning', 'Design', 'Construction Procurement', 'Construction', 'Close-Out'];
const RISKS = [
  [
    'Ground conditions worse than surveyed',
    'Boreholes were sparse along the alignment.',
    'Commission additional site investigation before detailed design.',
  ],
  [
    'Steel price escalation',
    'Supplier quotes are valid for 30 days only.',
    'Fix prices with early procurement of long-lead steel.',
  ],
  [
    'Permit approval delay',
    'The environmental permit is still under agency review.',
    'Weekly liaison meetings with the agency; prepare the fallback programme.',
  ],
  [
    'Key engineer unavailable',
    'The lead structural engineer is shared with two other projects.',
    'Train a second engineer on the model; agree priorities with the PMO.',
  ],
  [
    'Utility diversion clash',
    'Records of buried utilities are incomplete.',
    'Ground-penetrating radar survey and early contact with utility owners.',
  ],
  [
    'Client scope change',
    'The client is reconsidering the capacity requirement.',
    'Change-control board; price options before design freeze.',
  ],
  [
    'Contractor insolvency',
    'The main contractor reported losses last year.',
    'Parent-company guarantee and monthly financial checks.',
  ],
  [
    'Extreme weather during pours',
    'Concrete pours are planned in the winter months.',
    'Heated enclosures and a weather-window schedule.',
  ],
] as const;
const ISSUES = [
  ['Design review comments outstanding', 'The client returned 48 comments on the 60 % design.'],
  ['Crane breakdown on site', 'The tower crane is out of service pending a part.'],
  ['Late delivery of switchgear', 'The supplier slipped delivery by six weeks.'],
  ['Drawing register out of date', 'Several issued drawings are missing from the register.'],
  ['Invoice dispute with subcontractor', 'The subcontractor disputes the measured quantities.'],
  ['Safety observation: missing edge protection', 'Edge protection missing on level 3.'],
] as const;

/**
 * The plan for an anchor date (`YYYY-MM-DD`, the tenant's today at creation): 36 projects and 90 people.
 * The same anchor date gives the same plan.
 */
export function syntheticPlan(anchor: string): SyntheticPlan {
  const f = new Faker({ locale: [en] });
  f.seed(SYNTHETIC_SEED);
  const pick = <T>(list: readonly T[]): T => f.helpers.arrayElement(list as T[]);
  const people: PlannedPerson[] = [];
  for (let key = 0; key < 90; key++) {
    const r = key < 12 ? (ROLES[0] as (typeof ROLES)[number]) : pick(ROLES.slice(1));
    const first = f.person.firstName();
    const last = f.person.lastName();
    people.push({
      key,
      name: `${first} ${last}`,
      email: f.internet.email({ firstName: first, lastName: last, provider: 'example.com' }).toLowerCase(),
      role: r.role,
      skills: f.helpers.arrayElements(r.skills, { min: 2, max: Math.min(4, r.skills.length) }),
      capacityHoursPerWeek: f.helpers.weightedArrayElement([
        { value: 40, weight: 8 },
        { value: 32, weight: 1 },
        { value: 24, weight: 1 },
      ]),
      costRatePerHour: f.number.int({ min: r.rate[0], max: r.rate[1] }),
    });
  }
  const managers = people.filter((p) => p.role === 'Project Manager');
  const staff = people.filter((p) => p.role !== 'Project Manager');
  // Twelve people are booked on three projects at once over the coming months: real over-bookings.
  const overbooked = staff.slice(0, 12);
  const projects: PlannedProject[] = [];
  for (let i = 0; i < 36; i++) {
    const { kind, category } = KINDS[i % KINDS.length] as (typeof KINDS)[number];
    const city = f.location.city();
    const status: ProjectStatus = f.helpers.weightedArrayElement([
      { value: 'ON_TRACK', weight: 10 },
      { value: 'AT_RISK', weight: 6 },
      { value: 'OFF_TRACK', weight: 5 },
      { value: 'PLANNED', weight: 2 },
      { value: 'ON_HOLD', weight: 1 },
      { value: 'COMPLETED', weight: 2 },
    ]);
    const months = f.number.int({ min: 14, max: 48 });
    const startDate =
      status === 'PLANNED'
        ? addDays(anchor, f.number.int({ min: 20, max: 120 }))
        : status === 'COMPLETED'
          ? addMonths(anchor, -months - f.number.int({ min: 1, max: 6 }))
          : addMonths(anchor, -f.number.int({ min: 4, max: months - 4 }));
    const endDate = addMonths(startDate, months);
    const budget = f.number.int({ min: 20, max: 2400 }) * 100_000;
    const manager = managers[i % managers.length] as PlannedPerson;
    const drift =
      status === 'OFF_TRACK' ? 0.25 : status === 'AT_RISK' ? 0.1 : status === 'ON_HOLD' ? 0.05 : 0;
    const reports: PlannedReport[] = [];
    if (status !== 'PLANNED') {
      const last = status === 'COMPLETED' ? (endDate < anchor ? endDate : anchor) : anchor;
      const count = f.number.int({ min: 4, max: 8 });
      for (let k = count - 1; k >= 0; k--) {
        const asOf = addMonths(last, -k);
        if (asOf < startDate) continue;
        const share = (count - k) / count;
        const phaseIndex =
          status === 'COMPLETED' && k === 0
            ? 4
            : Math.min(3, Math.floor(share * 3.2) + (months > 30 ? 0 : 1));
        const slipDays = Math.round(drift * months * 30 * share);
        const reportStatus: ProjectStatus =
          k === 0 ? status : share < 0.5 ? 'ON_TRACK' : status === 'OFF_TRACK' ? 'AT_RISK' : status;
        reports.push({
          asOf,
          status: reportStatus,
          phase: PHASES[phaseIndex] as string,
          forecastEndDate: addDays(endDate, slipDays),
          forecastCost: Math.round(budget * (1 + drift * share * f.number.float({ min: 0.6, max: 1.4 }))),
          actualCost: Math.round(budget * Math.min(1, share * 0.8)),
          progress: Math.min(100, Math.round(share * (status === 'COMPLETED' && k === 0 ? 100 : 85))),
          summary: `${reportStatus === 'ON_TRACK' ? 'Work is progressing to plan.' : f.helpers.arrayElement(['Design coordination is behind.', 'Procurement of long-lead items slipped.', 'Ground conditions required redesign.', 'Client changes are under review.'])} ${f.company.catchPhrase()}.`,
        });
      }
    }
    const milestones: PlannedProject['milestones'] = [];
    ['Design freeze', 'Planning approval', 'Contract award', 'Substantial completion', 'Handover'].forEach(
      (name, m) => {
        const dueDate = addDays(startDate, Math.round(((m + 1) / 5.5) * months * 30.4));
        const past = dueDate < anchor;
        const missed = past && (status === 'OFF_TRACK' || status === 'AT_RISK') && f.datatype.boolean(0.6);
        milestones.push({ name, dueDate, status: !past ? 'PENDING' : missed ? 'MISSED' : 'COMPLETED' });
      },
    );
    const team = f.helpers.arrayElements(staff.slice(12), { min: 3, max: 6 });
    if (i < 12) team.push(...overbooked.filter((_, o) => o % 4 === i % 4 || o === i));
    const active = status !== 'PLANNED' && status !== 'COMPLETED';
    const allocations = active
      ? [...new Set(team)].map((p) => ({
          personKey: p.key,
          startDate: addMonths(anchor, -f.number.int({ min: 1, max: 3 })),
          endDate: addMonths(anchor, f.number.int({ min: 3, max: 8 })),
          allocationPercent: overbooked.includes(p)
            ? f.helpers.arrayElement([40, 50, 60])
            : f.helpers.arrayElement([20, 25, 40, 50]),
          role: p.role,
        }))
      : [];
    const risks: PlannedRisk[] = f.helpers
      .arrayElements(RISKS, { min: 1, max: status === 'ON_TRACK' ? 2 : 4 })
      .map(([title, description, mitigation]) => {
        const likelihood = f.number.int({ min: 2, max: 4 });
        const impact = f.number.int({ min: 2, max: 5 });
        const states: PlannedRisk['states'] = [{ likelihood, impact, status: 'OPEN' }];
        if (status === 'OFF_TRACK' || status === 'AT_RISK')
          states.push({ likelihood: Math.min(5, likelihood + 1), impact, status: 'OPEN' });
        states.push({
          likelihood: Math.min(5, likelihood + 1),
          impact,
          status: f.helpers.arrayElement(['MITIGATING', 'OPEN', 'CLOSED'] as const),
        });
        return {
          title,
          description,
          mitigation,
          ownerKey: (pick(team) as PlannedPerson).key,
          states,
          dueDate: addDays(anchor, f.number.int({ min: -20, max: 90 })),
        };
      });
    const issues: PlannedProject['issues'] = f.helpers
      .arrayElements(ISSUES, { min: 0, max: status === 'ON_TRACK' ? 1 : 3 })
      .map(([title, description]) => ({
        title,
        description,
        priority: f.helpers.arrayElement(['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const),
        status: f.helpers.arrayElement(['OPEN', 'IN_PROGRESS', 'RESOLVED'] as const),
        assigneeKey: (pick(team) as PlannedPerson).key,
        dueDate: addDays(anchor, f.number.int({ min: -15, max: 45 })),
      }));
    projects.push({
      code: `HRE-${101 + i}`,
      name: `${city} ${kind}`,
      description: `${kind} for ${f.company.name()} in ${city}: ${f.company.buzzPhrase()}.`,
      category,
      managingAgency: OFFICES[i % OFFICES.length] as string,
      clientAgency: f.company.name().replace(/,/g, ''),
      tags: [category.toLowerCase(), 'synthetic'],
      startDate,
      endDate,
      budget,
      managerKey: manager.key,
      reports,
      milestones,
      issues,
      risks,
      allocations,
    });
  }
  return { people, projects };
}
