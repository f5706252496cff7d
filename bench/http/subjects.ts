/**
 * The HTTP benchmark's subjects: each route, called the same way on Meridian and on the bare Express app.
 */
import path from 'node:path';
import { idOf, LARGE_TENANT_KEY } from '../seed-large.js';
import { NYC_KEY } from './options.js';

/** A benchmark subject: one route, called the same way on both servers. */
export interface Subject {
  id: string;
  title: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** Express route pattern (the bare app's route). */
  pattern: string;
  path: string;
  key: string;
  body?: (n: number) => unknown;
  /** PATCH with If-Match: a different project per request, with the version it is at. */
  rotating?: boolean;
}

export function subjects(nycProjectId: string): Subject[] {
  const large = LARGE_TENANT_KEY;
  return [
    {
      id: 'get-project',
      title: 'GET /v1/projects/{id}',
      method: 'GET',
      pattern: '/v1/projects/:id',
      path: `/v1/projects/${nycProjectId}`,
      key: NYC_KEY,
    },
    {
      id: 'list-nyc',
      title: 'GET /v1/projects?status=AT_RISK&limit=25 (NYC)',
      method: 'GET',
      pattern: '/v1/projects',
      path: '/v1/projects?status=AT_RISK&limit=25',
      key: NYC_KEY,
    },
    {
      id: 'list-large',
      title: 'GET /v1/projects?status=AT_RISK&limit=25 (large)',
      method: 'GET',
      pattern: '/v1/projects',
      path: '/v1/projects?status=AT_RISK&limit=25',
      key: large,
    },
    {
      id: 'list-large-offset',
      title: 'GET /v1/projects?status=AT_RISK&limit=25&offset=2000 (large)',
      method: 'GET',
      pattern: '/v1/projects',
      path: '/v1/projects?status=AT_RISK&limit=25&offset=2000',
      key: large,
    },
    { id: 'me', title: 'GET /v1/me', method: 'GET', pattern: '/v1/me', path: '/v1/me', key: NYC_KEY },
    {
      id: 'risks-high',
      title: 'GET /v1/risks?severity=HIGH&limit=25 (large)',
      method: 'GET',
      pattern: '/v1/risks',
      path: '/v1/risks?severity=HIGH&limit=25',
      key: large,
    },
    {
      id: 'post-risk',
      title: 'POST /v1/risks',
      method: 'POST',
      pattern: '/v1/risks',
      path: '/v1/risks',
      key: large,
      body: (n) => ({
        title: `Benchmark risk ${n}`,
        projectId: idOf(5, n % 1000),
        likelihood: 1 + (n % 5),
        impact: 1 + ((n >> 3) % 5),
      }),
    },
    {
      id: 'patch-project',
      title: 'PATCH /v1/projects/{id} with If-Match',
      method: 'PATCH',
      pattern: '/v1/projects/:id',
      path: `/v1/projects/${idOf(5, 99_999)}`,
      key: large,
      body: (n) => ({ description: `Benchmark edit ${n}` }),
      rotating: true,
    },
  ];
}
