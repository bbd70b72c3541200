import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorBodySchema, type InitData } from '@portal/contract';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const data = (over: Partial<InitData> = {}): InitData => ({
  organization: { name: 'Imported Co.', type: 0, labOption: false, postalCode: '150-0001' },
  buildings: [
    {
      name: 'HQ',
      floors: [
        { name: '1F', index: 1, type: 'office' },
        { name: 'B1', index: 0, type: 'parking' },
      ],
    },
    { name: 'Warehouse', floors: [] },
  ],
  operators: [
    {
      loginId: 'new.op@imported.example',
      firstName: 'Ken',
      lastName: 'Ito',
      password: 'Imported-Pass-1',
      type: 0,
      building: 1,
    },
  ],
  ...over,
});

const counts = async () => {
  const n = async (table: 'organizations' | 'buildings' | 'floors' | 'operators') =>
    Number(
      (
        await t.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    orgs: await n('organizations'),
    buildings: await n('buildings'),
    floors: await n('floors'),
    operators: await n('operators'),
  };
};

describe('POST /api/init-data', () => {
  it('imports an organization with buildings, floors and operators who can then log in', async () => {
    const { authorization } = await t.as('sysadmin@demo.example');
    const res = await t.inject({ method: 'POST', url: '/api/init-data', headers: { authorization }, payload: data() });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ buildings: 2, floors: 2, operators: 1 });
    const login = await t.login('new.op@imported.example', 'Imported-Pass-1');
    expect(login.statusCode).toBe(200);
    const session = login.json<{ buildingId: number }>();
    const b = await t.db.kysely
      .selectFrom('buildings')
      .select('name')
      .where('id', '=', session.buildingId)
      .executeTakeFirstOrThrow();
    expect(b.name).toBe('Warehouse');
  });

  it('is all or nothing: a clash or an invalid row changes nothing', async () => {
    const { authorization } = await t.as('sysadmin@demo.example');
    const before = await counts();
    const clash = await t.inject({
      method: 'POST',
      url: '/api/init-data',
      headers: { authorization },
      payload: data({
        operators: [
          {
            loginId: 'operator@demo.example',
            firstName: 'A',
            lastName: 'B',
            password: 'Imported-Pass-1',
            type: 0,
            building: 0,
          },
        ],
      }),
    });
    expect(clash.statusCode).toBe(409);
    expect(errorBodySchema.parse(clash.json()).error.details).toEqual([
      { path: 'operators.0.loginId', message: 'validation.duplicate' },
    ]);
    const dupOrg = await t.inject({
      method: 'POST',
      url: '/api/init-data',
      headers: { authorization },
      payload: data({ organization: { name: 'demo facilities co.', type: 0, labOption: false } }),
    });
    expect(dupOrg.statusCode).toBe(409);
    const invalid = await t.inject({
      method: 'POST',
      url: '/api/init-data',
      headers: { authorization },
      payload: {
        ...data(),
        operators: [{ loginId: 'x@y.example', firstName: 'A', lastName: 'B', password: 'short', type: 0, building: 5 }],
      },
    });
    expect(invalid.statusCode).toBe(400);
    const details = errorBodySchema.parse(invalid.json()).error.details?.map((d) => d.path);
    expect(details).toEqual(expect.arrayContaining(['operators.0.password', 'operators.0.building']));
    expect(await counts()).toEqual(before);
  });
});
