/**
 * Instants, property-tested (docs/design.md, Conventions: "Instants"): for every operation of the spec that takes a
 * `format: date-time` input (query parameter or body property, found from the spec by cases.ts), fast-check sends
 * - RFC 3339 instants between years 0001 and 9999 in UTC, in any offset, with or without a fraction: never a 5xx,
 *   and never a 400 naming the field;
 * - strings shaped like date-times with every part allowed out of range (second 60, hour 24, month 13, year 0000,
 *   offsets to ±24:59) and arbitrary text: never a 5xx, every error a problem+json; a leap second or an instant
 *   outside years 0001–9999 in UTC answers 400 naming the field.
 * On SQLite and, when TEST_DATABASE_URL is set, on Postgres, over the real server.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { type OperationId, operationTable } from '../../generated/operations.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { casesOf, instantFieldsOf } from './cases.js';

const DATABASES: ('sqlite' | 'postgres')[] = process.env.TEST_DATABASE_URL
  ? ['sqlite', 'postgres']
  : ['sqlite'];

/** Operations with instant inputs, and those inputs as `location:name`. */
const TARGETS = (Object.keys(operationTable) as OperationId[])
  .map((operationId) => {
    const fields = instantFieldsOf(operationTable[operationId]);
    return {
      operationId,
      fields: [...fields.query.map((n) => `query:${n}`), ...fields.body.map((n) => `body:${n}`)],
    };
  })
  .filter((t) => t.fields.length > 0);

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Years 0001-01-01T00:00:00Z … 9999-12-31T23:59:59.999Z, in ms. */
const MIN_MS = Date.UTC(2000, 0, 1) - 1999 * 365.2425 * 86_400_000 + 86_400_000;
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** An instant in range written in an offset (its local year still four digits), with an optional fraction. */
const validInstant = fc
  .record({
    ms: fc.integer({ min: Math.ceil(MIN_MS), max: MAX_MS }),
    offset: fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
    fraction: fc.option(
      fc.integer({ min: 1, max: 9 }).chain((d) => fc.stringMatching(new RegExp(`^[0-9]{${d}}$`))),
    ),
    zulu: fc.constantFrom('Z', 'z', '+00:00'),
    separator: fc.constantFrom('T', 't'),
  })
  .filter(({ ms, offset }) => {
    const year = new Date(ms + offset * 60_000).getUTCFullYear();
    return year >= 1 && year <= 9999;
  })
  .map(({ ms, offset, fraction, zulu, separator }) => {
    const local = new Date(ms + offset * 60_000);
    const zone =
      offset === 0
        ? zulu
        : `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
    return (
      `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}${separator}` +
      `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
      `${fraction === null ? '' : `.${fraction}`}${zone}`
    );
  });

/** Date-time shapes with each part allowed one step out of range; `refused` when the API must answer 400. */
const shapedInstant = fc
  .record({
    year: fc.oneof(fc.constantFrom(0, 1, 9999), fc.integer({ min: 0, max: 9999 })),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.integer({ min: 0, max: 32 }),
    hour: fc.integer({ min: 0, max: 24 }),
    minute: fc.integer({ min: 0, max: 60 }),
    second: fc.oneof(fc.constant(60), fc.integer({ min: 0, max: 60 })),
    offset: fc.oneof(fc.constant('Z'), fc.constantFrom('-14:00', '+14:00', '+00:01', '-24:59', '+23:59')),
  })
  .map((p) => ({
    text: `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${p.offset}`,
    leapSecond:
      p.second === 60 && p.month >= 1 && p.month <= 12 && p.day >= 1 && p.hour < 24 && p.minute < 60,
  }));

interface Answer {
  status: number;
  contentType: string;
  errors: string[];
}

for (const db of DATABASES) {
  describe(`instants in every operation that takes one (${db})`, function () {
    this.timeout(180_000);
    let server: TestServer;
    let key: string;

    before(async () => {
      server = await startTestServer({ db });
      key = (await server.createTenant(undefined, { rateLimitPerMinute: 100_000_000 })).keys.admin;
    });
    after(async () => {
      await server?.close();
    });

    /** Sends the operation's baseline request with `field` set to `value`. */
    async function send(operationId: OperationId, field: string, value: string): Promise<Answer> {
      const baseline = casesOf(operationId, {})[0];
      if (!baseline) throw new Error(`no baseline for ${operationId}`);
      const [location, name] = field.split(':') as [string, string];
      let target = baseline.target;
      let body = baseline.body;
      if (location === 'query') {
        const url = new URL(`http://x${target}`);
        url.searchParams.set(name, value);
        target = `${url.pathname}${url.search}`;
      } else {
        body = JSON.stringify({ ...(JSON.parse(body ?? '{}') as object), [name]: value });
      }
      const res = await fetch(`${server.baseUrl}${target}`, {
        method: baseline.method,
        headers: { authorization: `Bearer ${key}`, ...baseline.headers },
        ...(body !== undefined ? { body } : {}),
      });
      const contentType = res.headers.get('content-type') ?? '';
      const json = (await res.json().catch(() => ({}))) as { errors?: { location: string; path: string }[] };
      return {
        status: res.status,
        contentType,
        errors: (json.errors ?? []).map((e) => `${e.location}:${e.path.replace(/^\//, '')}`),
      };
    }

    for (const { operationId, fields } of TARGETS) {
      for (const field of fields) {
        it(`${operationId} ${field}: accepts RFC 3339 instants in years 0001–9999 UTC in any offset`, async () => {
          await fc.assert(
            fc.asyncProperty(validInstant, async (value) => {
              const answer = await send(operationId, field, value);
              expect(answer.status, value).to.be.below(500);
              // A business rule may still refuse it (422: an expiry in the past), never the format (400).
              if (answer.status === 400)
                expect(answer.errors, `${value} refused as malformed`).not.to.include(field);
            }),
            { numRuns: 60 },
          );
        });

        it(`${operationId} ${field}: no 5xx for any date-time shape or text; leap seconds answer 400 naming the field`, async () => {
          await fc.assert(
            fc.asyncProperty(
              fc.oneof(
                shapedInstant,
                fc.string({ maxLength: 40 }).map((text) => ({ text, leapSecond: false })),
              ),
              async ({ text, leapSecond }) => {
                const answer = await send(operationId, field, text);
                expect(answer.status, text).to.be.below(500);
                if (answer.status >= 400)
                  expect(answer.contentType, text).to.match(/^application\/problem\+json/);
                if (leapSecond) {
                  expect(answer.status, text).to.equal(400);
                  expect(answer.errors, text).to.include(field);
                }
              },
            ),
            { numRuns: 80 },
          );
        });

        it(`${operationId} ${field}: 9999-12-31T23:59:59-14:00 (year 10000 in UTC) answers 400 naming the field`, async () => {
          const answer = await send(operationId, field, '9999-12-31T23:59:59-14:00');
          expect(answer.status).to.equal(400);
          expect(answer.errors).to.include(field);
        });
      }
    }

    it('found the operations that take instants in the spec', () => {
      expect(TARGETS.map((t) => t.operationId)).to.include.members(['createApiKey', 'listAuditLogs']);
    });
  });
}
