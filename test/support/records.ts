/**
 * Records the tests build through the API, each with unique values: projects, risks, resources; and keys no
 * tenant has.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Api } from './client.js';

/** A short unique suffix for names and codes. */
export function uniq(prefix = 'x'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** Creates a project (201 asserted) and returns its body. */
export async function makeProject(api: Api, fields: Record<string, unknown> = {}): Promise<any> {
  const res = await api.post('createProject', '/projects', {
    body: { name: uniq('Project'), startDate: '2026-01-01', endDate: '2026-12-31', ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body;
}

/** Creates a risk (201 asserted) and returns its body. */
export async function makeRisk(
  api: Api,
  projectId: string,
  fields: Record<string, unknown> = {},
): Promise<any> {
  const res = await api.post('createRisk', '/risks', {
    body: { title: uniq('Risk'), projectId, likelihood: 2, impact: 2, ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body;
}

/** Creates a resource (a person; 201 asserted) and returns its body. */
export async function makeResource(api: Api, fields: Record<string, unknown> = {}): Promise<any> {
  const res = await api.post('createResource', '/resources', { body: { name: uniq('Person'), ...fields } });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body;
}

/** A well-formed key that no tenant has: `mk_live_` + 40 base62 characters. */
export function unknownKey(): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let out = 'mk_live_';
  for (let i = 0; i < 40; i++) out += alphabet[Math.floor(Math.random() * alphabet.length)];
  return out;
}
