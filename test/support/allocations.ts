/**
 * The setup of the allocation tests: for each test, a resource and a project of the test's tenant, and `allocate`,
 * which books the one on the other (June 2026 at 50 % unless told otherwise).
 */
import { expect } from 'chai';
import { makeProject, makeResource } from './records.js';
import type { ContractSuite } from './suite.js';

/** The resource and project of the running test, and a way to allocate the one to the other. */
export interface AllocationFixture {
  readonly resource: any;
  readonly project: any;
  /** Creates an allocation of `resource` to `project` unless `fields` say otherwise (201 asserted); its body. */
  allocate(fields?: Record<string, unknown>): Promise<any>;
}

/** Registers a `beforeEach` that makes the resource and the project; call it after `contractSuite`. */
export function allocationFixture(ctx: ContractSuite): AllocationFixture {
  let made: { resource: any; project: any } | undefined;
  beforeEach(async () => {
    made = { resource: await makeResource(ctx.api), project: await makeProject(ctx.api) };
  });
  const current = () => {
    if (!made) throw new Error('allocationFixture: read inside a test');
    return made;
  };
  return {
    get resource() {
      return current().resource;
    },
    get project() {
      return current().project;
    },
    async allocate(fields = {}) {
      const res = await ctx.api.post('createAllocation', '/allocations', {
        body: {
          resourceId: current().resource.id,
          projectId: current().project.id,
          startDate: '2026-06-01',
          endDate: '2026-06-30',
          allocationPercent: 50,
          ...fields,
        },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body;
    },
  };
}
