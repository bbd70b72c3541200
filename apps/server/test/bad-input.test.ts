import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '@portal/contract';
import { createTestApp, type TestApp } from './helpers.ts';

/** Malformed input never gets a 500 and always gets the one error body (fast-check). */
let t: TestApp;
let authorization: string;
beforeAll(async () => {
  t = await createTestApp();
  authorization = (await t.as('orgadmin@demo.example')).authorization;
});
afterAll(async () => {
  await t.close();
});

const expectClientAnswer = (res: { statusCode: number; body: string; json: () => unknown }, ok: number[]) => {
  expect(res.statusCode).toBeLessThan(500);
  if (!ok.includes(res.statusCode)) expect(errorBodySchema.safeParse(res.json()).success).toBe(true);
};

const jsonish = fc.oneof(
  fc.json(),
  fc.string(),
  fc.jsonValue().map((v) => JSON.stringify(v)),
);

describe('POST /api/operators/login with arbitrary input', () => {
  it('answers 400 or 401, never 5xx, for any JSON body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (body) => {
        const res = await t.inject({
          method: 'POST',
          url: '/api/operators/login',
          payload: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        });
        expectClientAnswer(res, []);
        expect([400, 401, 403]).toContain(res.statusCode);
      }),
      { numRuns: 150 },
    );
  });

  it('handles arbitrary raw bodies and content types', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 300 }),
        fc.constantFrom(
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data',
          'application/json; charset=utf-16',
        ),
        async (payload, contentType) => {
          const res = await t.inject({
            method: 'POST',
            url: '/api/operators/login',
            payload,
            headers: { 'content-type': contentType },
          });
          expectClientAnswer(res, []);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers plausible credentials with 401 and valid-looking ones never with 200', async () => {
    await fc.assert(
      fc.asyncProperty(fc.emailAddress(), fc.string({ minLength: 6, maxLength: 40 }), async (loginId, loginPw) => {
        const res = await t.inject({ method: 'POST', url: '/api/operators/login', payload: { loginId, loginPw } });
        expectClientAnswer(res, []);
        expect(res.statusCode).not.toBe(200);
      }),
      { numRuns: 40 },
    );
  });
});

describe('GET list endpoints with arbitrary filters', () => {
  it('answers 200 or 400 BAD_FILTER for any filter string', async () => {
    await fc.assert(
      fc.asyncProperty(
        jsonish,
        fc.constantFrom('/api/buildings', '/api/organizations', '/api/buildings/1/floors'),
        async (filter, path) => {
          const res = await t.inject({ method: 'GET', url: path, query: { filter }, headers: { authorization } });
          expectClientAnswer(res, [200]);
          if (res.statusCode !== 200)
            expect(['BAD_FILTER', 'VALIDATION_FAILED']).toContain(errorBodySchema.parse(res.json()).error.code);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('answers 200 or 400 for structured filters built from real field names and operators', async () => {
    const field = fc.constantFrom('id', 'name', 'status', 'updatedAt', 'organizationId', 'latitude', 'groups', 'bogus');
    const op = fc.constantFrom('eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'inq', 'nin', 'like', 'between', 'regexp');
    const value = fc.oneof(
      fc.integer(),
      fc.double(),
      fc.string(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 3 }),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    );
    const where = fc.dictionary(field, fc.oneof(value, fc.dictionary(op, value, { maxKeys: 2 })), { maxKeys: 3 });
    const filter = fc.record(
      {
        where: fc.oneof(where, fc.record({ or: fc.array(where, { maxLength: 3 }) })),
        order: fc.oneof(
          fc.constantFrom('name ASC', 'updatedAt DESC', 'id desc', 'name sideways'),
          fc.array(fc.constantFrom('id', 'name DESC', 'x'), { maxLength: 2 }),
        ),
        fields: fc.array(field, { maxLength: 3 }),
        include: fc.array(fc.constantFrom('groups', 'flowGroups', 'operators'), { maxLength: 2 }),
        limit: fc.integer({ min: -5, max: 2000 }),
        skip: fc.integer({ min: -5, max: 100 }),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(filter, async (f) => {
        const res = await t.inject({
          method: 'GET',
          url: '/api/buildings',
          query: { filter: JSON.stringify(f) },
          headers: { authorization },
        });
        expectClientAnswer(res, [200]);
      }),
      { numRuns: 200 },
    );
  });
});

describe('every route with junk', () => {
  it('never answers 5xx to junk params, query and bodies', async () => {
    const routes = t.app.apiRoutes;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.string({ maxLength: 30 }),
        fc.jsonValue(),
        async (route, param, body) => {
          const url =
            route.url.replace(/:(\w+)/g, encodeURIComponent(param) || 'x') +
            `?page=${encodeURIComponent(param)}&filter=${encodeURIComponent(param)}`;
          const res = await t.inject({
            method: route.method as 'POST',
            url,
            headers: { authorization, 'content-type': 'application/json' },
            payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : JSON.stringify(body),
          });
          expect({ route: `${route.method} ${route.url}`, status: res.statusCode < 500 }).toEqual({
            route: `${route.method} ${route.url}`,
            status: true,
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
