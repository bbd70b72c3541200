import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InitData } from '@portal/contract';
import { applyFilter, applyOrder, countOf, pageWithTotal, parseFilter } from '../src/lib/filter.ts';
import { scopeWhere, type TenantScope } from '../src/lib/scope.ts';
import { buildingFilter, buildingRepo } from '../src/modules/buildings/building-repo.ts';
import { operatorFilter, operatorRepo } from '../src/modules/operators/operator-repo.ts';
import { sha256 } from '../src/lib/crypto.ts';
import { sessionRepo } from '../src/modules/auth/session-repo.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Lists compiled once per shape (lib/compiled-list.ts): a shape's statement is reused with each
 * request's values, so every value (the caller's organization and building, the search text, the
 * ids, limit and skip) must reach the database anew each time. Each answer is compared with the
 * same list built and compiled for that request alone (`pageWithTotal`), asked in an order that
 * reuses every shape with other values and other callers.
 */
let t: TestApp;
const orgs: number[] = [];
const buildingsOf = new Map<number, number[]>();

const data = (n: number): InitData => ({
  organization: { name: `Compiled Org ${n}`, type: 0, labOption: false },
  buildings: [0, 1, 2].map((b) => ({ name: `Compiled ${n}-${b}`, floors: [] })),
  operators: [0, 1, 2, 3].map((o) => ({
    loginId: `op${o}@compiled-${n}.example`,
    firstName: `F${o}`,
    lastName: `Compiled${n}${o}`,
    password: 'Compiled-Pass-2026',
    type: o === 0 ? 2 : 0,
    building: o % 3,
  })),
});

beforeAll(async () => {
  t = await createTestApp();
  const sysAdmin = (await t.as('sysadmin@demo.example')).authorization;
  for (const n of [1, 2]) {
    const res = await t.call('POST', '/init-data', sysAdmin, data(n));
    expect(res.statusCode).toBe(201);
    const orgId = res.json<{ organizationId: number }>().organizationId;
    orgs.push(orgId);
    const rows = await t.db.kysely.selectFrom('buildings').select('id').where('organization_id', '=', orgId).execute();
    buildingsOf.set(
      orgId,
      rows.map((r) => r.id),
    );
  }
});
afterAll(async () => {
  await t?.close();
});

/** Every kind of caller, of both organizations; general operators with and without a building. */
function scopes(): TenantScope[] {
  const out: TenantScope[] = [{ type: 9, organizationId: orgs[0]!, buildingId: null }];
  for (const orgId of orgs) {
    const [b0, b1] = buildingsOf.get(orgId)!;
    out.push(
      { type: 2, organizationId: orgId, buildingId: null },
      { type: 1, organizationId: orgId, buildingId: b0! },
      { type: 0, organizationId: orgId, buildingId: b0! },
      { type: 0, organizationId: orgId, buildingId: b1! },
      { type: 0, organizationId: orgId, buildingId: null },
    );
  }
  return out;
}

describe('lists compiled once per shape', () => {
  it('buildings: each caller and each value gets the answer of its own statement', async () => {
    const [one, two] = [buildingsOf.get(orgs[0]!)!, buildingsOf.get(orgs[1]!)!];
    const filters = [
      {},
      { where: { status: 1 }, order: 'name ASC', limit: 2, skip: 0 },
      { where: { status: 1 }, order: 'name ASC', limit: 2, skip: 1 },
      { where: { status: 0 }, order: 'name ASC', limit: 3, skip: 0 },
      { where: { name: { like: '%1-%' } }, limit: 5 },
      { where: { name: { like: '%2-%' } }, limit: 5 },
      { where: { id: { inq: [one[0], two[1]] } }, order: 'id ASC' },
      { where: { id: { inq: [one[1], two[0]] } }, order: 'id ASC' },
      { where: { id: { inq: [one[2]] } }, order: 'id ASC' },
      { where: { id: { between: [one[0], two[0]] } }, order: 'id DESC', fields: ['id', 'name'] },
      { where: { id: { between: [one[1], two[2]] } }, order: 'id DESC', fields: ['id', 'name'] },
      { where: { or: [{ organizationId: orgs[0] }, { name: 'Compiled 2-2' }] }, skip: 50 },
      { where: { or: [{ organizationId: orgs[1] }, { name: 'Compiled 1-1' }] }, skip: 1 },
    ];
    const db = t.db.kysely;
    for (let round = 0; round < 2; round++) {
      for (const raw of filters) {
        for (const scope of scopes()) {
          const f = parseFilter(JSON.stringify(raw), buildingFilter);
          const scoped = db
            .selectFrom('buildings')
            .where((eb) =>
              scopeWhere(scope, eb, { organization: 'buildings.organization_id', building: 'buildings.id' }),
            );
          const alone = await pageWithTotal(applyFilter(scoped.selectAll(), f), countOf(scoped, f.where), f.skip);
          const compiled = await buildingRepo(db).list(scope, f);
          expect([compiled.total, compiled.rows.map((r) => [r.id, r.name])], JSON.stringify({ raw, scope })).toEqual([
            alone.total,
            alone.rows.map((r) => [r.id, r.name]),
          ]);
        }
      }
    }
  });

  it('operators: each caller and each search gets the answer of its own statement', async () => {
    const filters = [
      {},
      { limit: 2, skip: 3 },
      { limit: 3, skip: 1 },
      { where: { or: [{ lastName: { like: '%d1%' } }, { loginId: { like: '%d1%' } }] }, limit: 20 },
      { where: { or: [{ lastName: { like: '%d2%' } }, { loginId: { like: '%op3%' } }] }, limit: 20 },
      { where: { type: 2 }, order: 'loginId DESC' },
      { where: { type: 0 }, order: 'loginId DESC' },
      { where: { buildingId: buildingsOf.get(orgs[0]!)![1] }, order: 'lastName DESC' },
      { where: { buildingId: buildingsOf.get(orgs[1]!)![0] }, order: 'lastName DESC' },
      { where: { buildingId: null } },
      { where: { lockedUntil: { neq: null } } },
      { where: { type: { nin: [0, 9] } }, skip: 100 },
    ];
    const db = t.db.kysely;
    const live = (scope: TenantScope) =>
      db
        .selectFrom('operators')
        .where('operators.deleted_at', 'is', null)
        .where((eb) => scopeWhere(scope, eb, { organization: 'operators.organization_id' }));
    for (let round = 0; round < 2; round++) {
      for (const raw of filters) {
        for (const scope of scopes()) {
          const f = parseFilter(JSON.stringify(raw), operatorFilter);
          const ids = applyFilter(live(scope).select('operators.id'), f);
          const page = applyOrder(live(scope).select(['operators.id', 'operators.login_id']), f.order).where(
            'operators.id',
            'in',
            ids,
          );
          const alone = await pageWithTotal(page, countOf(live(scope), f.where), f.skip);
          const compiled = await operatorRepo(db).list({ ...scope, id: 1 } as never, f);
          expect(
            [compiled.total, compiled.rows.map((r) => [r.id, r.login_id])],
            JSON.stringify({ raw, scope }),
          ).toEqual([alone.total, alone.rows.map((r) => [r.id, r.login_id])]);
        }
      }
    }
  });

  it('groups of buildings: each list of ids (of any length) gets its own groups', async () => {
    const sysAdmin = (await t.as('sysadmin@demo.example')).authorization;
    const all = [...buildingsOf.get(orgs[0]!)!, ...buildingsOf.get(orgs[1]!)!];
    for (const [i, buildingId] of all.entries()) {
      for (let g = 0; g < i % 3; g++) {
        expect((await t.call('POST', '/robot-groups', sysAdmin, { buildingId, name: `R${i}-${g}` })).statusCode).toBe(
          201,
        );
      }
      if (i % 2 === 0) {
        expect((await t.call('POST', '/flow-groups', sysAdmin, { buildingId, name: `F${i}` })).statusCode).toBe(201);
      }
    }
    const db = t.db.kysely;
    const alone = async (table: 'robot_groups' | 'flow_groups', ids: number[]) => {
      const rows = await db
        .selectFrom(table)
        .select(['id', 'name', 'building_id'])
        .where('building_id', 'in', ids)
        .orderBy('sort_order')
        .orderBy('id')
        .execute();
      const out = new Map<number, Array<{ id: number; name: string }>>();
      for (const r of rows) out.set(r.building_id, [...(out.get(r.building_id) ?? []), { id: r.id, name: r.name }]);
      return out;
    };
    const lists = [all.slice(0, 1), all.slice(1, 4), all.slice(2, 5), all.slice(0, 3), all.slice(3), all, [all[5]!]];
    for (let round = 0; round < 2; round++) {
      for (const ids of lists) {
        for (const tables of [['robot_groups', 'flow_groups'], ['flow_groups'], ['robot_groups']] as const) {
          const compiled = await buildingRepo(db).groupsOfEach(tables, ids);
          for (const table of tables) {
            expect(compiled.get(table), JSON.stringify({ ids, table })).toEqual(await alone(table, ids));
          }
        }
      }
    }
  });

  it('sessions: each token gets its own session, asked one after another', async () => {
    const tokens = [
      (await t.as('sysadmin@demo.example')).token,
      (await t.as('orgadmin@demo.example')).token,
      (await t.as('operator@demo.example')).token,
    ];
    const repo = sessionRepo(t.db.kysely);
    for (let round = 0; round < 2; round++) {
      for (const token of [...tokens, 'not-a-token-of-anyone-at-all']) {
        const hash = sha256(token);
        const expected = await t.db.kysely
          .selectFrom('sessions')
          .select(['id', 'operator_id'])
          .where('token_hash', '=', hash)
          .executeTakeFirst();
        const found = await repo.findByTokenHash(hash);
        expect(found && [found.sessionId, found.operatorId]).toEqual(expected && [expected.id, expected.operator_id]);
      }
    }
  });
});
