import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkItemSchema, type CheckItem, type CheckItemInput, type InitData } from '@portal/contract';
import { checkItemsUsingRule } from '../src/modules/check-items/check-item-repo.ts';
import { createTestApp, errorOf, type TestApp } from './helpers.ts';

/**
 * Check items: CRUD with audit entries, the field rules (name, required fields, meter fields, the
 * threshold rule of an alerting item, the floor of the building, the definition JSON), roles,
 * tenancy (another organization's item is 404), list filters and stale edits (409).
 */
let t: TestApp;
const auth = { general: '', manager: '', orgAdmin: '', sysAdmin: '', otherAdmin: '' };
let demoOrgId: number;
let demoBuildingId: number;
let demoFloorId: number;
let annexId: number;
let annexFloorId: number;
let otherOrgId: number;
let otherBuildingId: number;
let otherFloorId: number;
let ruleId: number;
let otherRuleId: number;

const otherData: InitData = {
  organization: { name: 'Other Check Org', type: 0, labOption: false },
  buildings: [{ name: 'Other Check Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
  operators: [
    {
      loginId: 'admin@other-ci.example',
      firstName: 'A',
      lastName: 'Other',
      password: 'Other-Admin-2026',
      type: 2,
      building: 0,
    },
  ],
};

const call: TestApp['call'] = (...args) => t.call(...args);
let n = 0;
const uniq = (base: string) => `${base} ${++n}`;

const input = (over: Partial<CheckItemInput> = {}): CheckItemInput => ({
  name: uniq('Boiler pressure gauge'),
  buildingId: demoBuildingId,
  floorId: demoFloorId,
  type: 'meter',
  status: 1,
  meterType: 'analog',
  readingService: 'builtin',
  qrCodeNumber: 'QR-0001',
  taskId: '',
  deviceId: '',
  alerting: true,
  thresholdRuleId: ruleId,
  x: 12.5,
  y: -3.25,
  z: 1.4,
  direction: Math.PI / 2,
  markerType: 'qr',
  areaDetectionMarker: false,
  definition: '{"unit":"MPa","min":0,"max":1}',
  ...over,
});

async function create(over: Partial<CheckItemInput> = {}, authorization = auth.orgAdmin): Promise<CheckItem> {
  const res = await call('POST', '/check-items', authorization, input(over));
  expect(res.statusCode, res.body).toBe(201);
  return checkItemSchema.parse(res.json());
}

const auditOf = (action: string, targetId: number) =>
  t.db.kysely
    .selectFrom('audit_logs')
    .selectAll()
    .where('action', '=', action)
    .where('target_id', '=', String(targetId))
    .execute();

const list = async (authorization: string, filter?: unknown) => {
  const q = filter === undefined ? '' : `?filter=${encodeURIComponent(JSON.stringify(filter))}`;
  const res = await call('GET', `/check-items${q}`, authorization);
  expect(res.statusCode, res.body).toBe(200);
  return { items: res.json<CheckItem[]>(), total: Number(res.headers['x-total-count']) };
};

const count = async () =>
  Number(
    (
      await t.db.kysely
        .selectFrom('check_items')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function insertRule(organizationId: number, name: string): Promise<number> {
  const now = new Date().toISOString();
  const row = await t.db.kysely
    .insertInto('threshold_rules')
    .values({
      organization_id: organizationId,
      name,
      description: '',
      level: 5,
      status: 1,
      conditions: '[]',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeAll(async () => {
  t = await createTestApp();
  auth.sysAdmin = (await t.as('sysadmin@demo.example')).authorization;
  auth.orgAdmin = (await t.as('orgadmin@demo.example')).authorization;
  auth.manager = (await t.as('manager@demo.example')).authorization;
  auth.general = (await t.as('operator@demo.example')).authorization;
  const b = await t.db.kysely
    .selectFrom('buildings')
    .select(['id', 'organization_id'])
    .where('name', '=', 'Demo Tower')
    .executeTakeFirstOrThrow();
  demoBuildingId = b.id;
  demoOrgId = b.organization_id;
  demoFloorId = (
    await t.db.kysely
      .selectFrom('floors')
      .select('id')
      .where('building_id', '=', demoBuildingId)
      .orderBy('id')
      .executeTakeFirstOrThrow()
  ).id;
  const created = await call('POST', '/buildings', auth.orgAdmin, {
    name: 'Check Annex',
    prefecture: '',
    city: '',
    address: '',
    postalCode: '',
    latitude: null,
    longitude: null,
    organizationId: demoOrgId,
    status: 1,
  });
  expect(created.statusCode, created.body).toBe(201);
  annexId = created.json<{ id: number }>().id;
  const floor = await call('POST', `/buildings/${annexId}/floors`, auth.orgAdmin, {
    name: 'B1',
    index: 0,
    type: 'office',
    resolution: null,
    originX: null,
    originY: null,
  });
  expect(floor.statusCode, floor.body).toBe(201);
  annexFloorId = floor.json<{ id: number }>().id;
  const imported = await call('POST', '/init-data', auth.sysAdmin, otherData);
  expect(imported.statusCode, imported.body).toBe(201);
  otherOrgId = imported.json<{ organizationId: number }>().organizationId;
  const ob = await t.db.kysely
    .selectFrom('buildings')
    .select('id')
    .where('organization_id', '=', otherOrgId)
    .executeTakeFirstOrThrow();
  otherBuildingId = ob.id;
  otherFloorId = (
    await t.db.kysely
      .selectFrom('floors')
      .select('id')
      .where('building_id', '=', otherBuildingId)
      .executeTakeFirstOrThrow()
  ).id;
  const login = await t.login('admin@other-ci.example', 'Other-Admin-2026');
  expect(login.statusCode).toBe(200);
  auth.otherAdmin = `Bearer ${login.json<{ token: string }>().token}`;
  ruleId = await insertRule(demoOrgId, 'Pressure range');
  otherRuleId = await insertRule(otherOrgId, 'Other range');
});
afterAll(async () => {
  await t?.close();
});

describe('check items', () => {
  it('creates, reads, updates and deletes an item, auditing each change', async () => {
    const body = input();
    const item = await create(body);
    expect(item).toMatchObject({
      name: body.name,
      organizationId: demoOrgId,
      buildingId: demoBuildingId,
      buildingName: 'Demo Tower',
      floorId: demoFloorId,
      type: 'meter',
      status: 1,
      meterType: 'analog',
      readingService: 'builtin',
      qrCodeNumber: 'QR-0001',
      alerting: true,
      thresholdRuleId: ruleId,
      x: 12.5,
      y: -3.25,
      z: 1.4,
      direction: Math.PI / 2,
      markerType: 'qr',
      areaDetectionMarker: false,
      definition: body.definition,
    });
    expect(item.floorName.length).toBeGreaterThan(0);
    expect(await auditOf('checkItem.create', item.id)).toHaveLength(1);

    const got = await call('GET', `/check-items/${item.id}`, auth.general);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(item);

    const put = await call('PUT', `/check-items/${item.id}`, auth.orgAdmin, {
      ...body,
      buildingId: annexId,
      floorId: annexFloorId,
      readingService: 'hakaru',
      taskId: 'task-42',
      deviceId: 'dev-7',
      status: 2,
      updatedAt: item.updatedAt,
    });
    expect(put.statusCode, put.body).toBe(200);
    const updated = checkItemSchema.parse(put.json());
    expect(updated).toMatchObject({
      buildingId: annexId,
      buildingName: 'Check Annex',
      floorId: annexFloorId,
      floorName: 'B1',
      readingService: 'hakaru',
      taskId: 'task-42',
      deviceId: 'dev-7',
      status: 2,
    });
    expect(updated.updatedAt > item.updatedAt).toBe(true);
    expect(await auditOf('checkItem.update', item.id)).toHaveLength(1);

    // Based on the old version: refused, nothing overwritten.
    const stale = await call('PUT', `/check-items/${item.id}`, auth.orgAdmin, {
      ...body,
      name: 'Someone else',
      updatedAt: item.updatedAt,
    });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).code).toBe('STALE_UPDATE');
    expect((await call('GET', `/check-items/${item.id}`, auth.orgAdmin)).json<CheckItem>().name).toBe(body.name);

    const del = await call('DELETE', `/check-items/${item.id}`, auth.orgAdmin);
    expect(del.statusCode).toBe(204);
    expect(await auditOf('checkItem.delete', item.id)).toHaveLength(1);
    expect((await call('GET', `/check-items/${item.id}`, auth.orgAdmin)).statusCode).toBe(404);
    const gone = await call('PUT', `/check-items/${item.id}`, auth.orgAdmin, { ...body, updatedAt: updated.updatedAt });
    expect(gone.statusCode).toBe(404);
  });

  it('keeps no meter fields on a visual item, and takes the defaults', async () => {
    const res = await call('POST', '/check-items', auth.orgAdmin, {
      name: uniq('Fire door'),
      buildingId: demoBuildingId,
      floorId: demoFloorId,
      type: 'visual',
      meterType: 'analog',
      readingService: 'hakaru',
      taskId: 'x',
      deviceId: 'y',
      definition: '{}',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      type: 'visual',
      status: 2,
      meterType: null,
      readingService: null,
      taskId: '',
      deviceId: '',
      alerting: false,
      thresholdRuleId: null,
      x: null,
      y: null,
      z: 0,
      direction: 0,
      markerType: 'qr',
    });
  });

  it.each([
    ['no name', { name: '' }, 'name', 'validation.required'],
    ['a blank name', { name: '   ' }, 'name', 'validation.required'],
    ['a name over 512 characters', { name: 'x'.repeat(513) }, 'name', 'validation.max512'],
    ['no building', { buildingId: undefined }, 'buildingId', 'validation.number'],
    ['no floor', { floorId: undefined }, 'floorId', 'validation.number'],
    ['no type', { type: undefined }, 'type', 'validation.required'],
    ['an unknown type', { type: 'camera' }, 'type', 'validation.required'],
    ['an unknown status', { status: 3 }, 'status', 'validation.required'],
    ['a meter without meter type', { meterType: null }, 'meterType', 'validation.required'],
    ['a meter without reading service', { readingService: null }, 'readingService', 'validation.required'],
    ['an unknown reading service', { readingService: 'ocr' }, 'readingService', 'validation.required'],
    [
      'hakaru.ai without task ID',
      { readingService: 'hakaru', taskId: '' },
      'taskId',
      'checkItemValidation.taskIdRequired',
    ],
    [
      'an alerting item without rule',
      { thresholdRuleId: null },
      'thresholdRuleId',
      'checkItemValidation.thresholdRequired',
    ],
    ['x without y', { y: null }, 'y', 'checkItemValidation.locationPair'],
    ['a direction past π', { direction: 3.2 }, 'direction', 'validation.range'],
    ['a QR code number over 64', { qrCodeNumber: 'q'.repeat(65) }, 'qrCodeNumber', 'validation.max64'],
    ['no definition', { definition: undefined }, 'definition', 'validation.required'],
    ['an empty definition', { definition: '' }, 'definition', 'validation.required'],
    ['a definition that is not JSON', { definition: '{"unit": MPa}' }, 'definition', 'checkItemValidation.json'],
    ['a definition that is a JSON array', { definition: '[1,2]' }, 'definition', 'checkItemValidation.json'],
    ['an unknown marker type', { markerType: 'aruco' }, 'markerType', 'validation.required'],
  ])('refuses %s with 400 on the field, changing nothing', async (_what, over, path, message) => {
    const before = await count();
    const res = await call('POST', '/check-items', auth.orgAdmin, { ...input(), ...over });
    expect(res.statusCode, res.body).toBe(400);
    const error = errorOf(res);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toContainEqual(expect.objectContaining({ path, message }));
    expect(await count()).toBe(before);
  });

  it('accepts a name of exactly 512 characters', async () => {
    const item = await create({ name: `${'n'.repeat(500)}${String(++n).padStart(12, '0')}` });
    expect(item.name).toHaveLength(512);
  });

  it('refuses a floor of another building, a building or rule of another tenant, and an unknown rule', async () => {
    const before = await count();
    const cases: Array<[Partial<CheckItemInput>, string, string]> = [
      [{ floorId: annexFloorId }, 'floorId', 'validation.notInBuilding'],
      [{ floorId: 999_999 }, 'floorId', 'validation.notFound'],
      [{ buildingId: otherBuildingId, floorId: otherFloorId }, 'buildingId', 'validation.notFound'],
      [{ thresholdRuleId: otherRuleId }, 'thresholdRuleId', 'validation.notFound'],
      [{ thresholdRuleId: 999_999 }, 'thresholdRuleId', 'validation.notFound'],
    ];
    for (const [over, path, message] of cases) {
      const res = await call('POST', '/check-items', auth.orgAdmin, input(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(errorOf(res).details).toContainEqual(expect.objectContaining({ path, message }));
    }
    expect(await count()).toBe(before);
  });

  it('lets administrators write and general operators only read', async () => {
    const byManager = await create({}, auth.manager);
    const bySys = await create({}, auth.sysAdmin);
    expect(bySys.organizationId).toBe(demoOrgId);
    const before = await count();
    const refused = await call('POST', '/check-items', auth.general, input());
    expect(refused.statusCode).toBe(403);
    const put = await call('PUT', `/check-items/${byManager.id}`, auth.general, {
      ...input(),
      updatedAt: byManager.updatedAt,
    });
    expect(put.statusCode).toBe(403);
    expect((await call('DELETE', `/check-items/${byManager.id}`, auth.general)).statusCode).toBe(403);
    expect(await count()).toBe(before);
    expect((await call('GET', `/check-items/${byManager.id}`, auth.general)).statusCode).toBe(200);
  });

  it("answers another tenant's item as not found, and lists only the caller's scope", async () => {
    const mine = await create();
    const annexItem = await create({ buildingId: annexId, floorId: annexFloorId });
    const theirs = await create(
      { buildingId: otherBuildingId, floorId: otherFloorId, thresholdRuleId: otherRuleId },
      auth.otherAdmin,
    );
    expect(theirs.organizationId).toBe(otherOrgId);
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { ...input(), updatedAt: theirs.updatedAt }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(method, `/check-items/${theirs.id}`, auth.orgAdmin, body);
      expect(res.statusCode, method).toBe(404);
    }
    expect((await call('GET', `/check-items/${mine.id}`, auth.otherAdmin)).statusCode).toBe(404);
    // The other organization's rule on our item is "not found" too (checked above); its list is its own.
    const theirsList = await list(auth.otherAdmin);
    expect(theirsList.items.map((i) => i.id)).toEqual([theirs.id]);
    const ours = await list(auth.orgAdmin);
    expect(ours.items.map((i) => i.id)).not.toContain(theirs.id);
    expect(ours.items.map((i) => i.id)).toContain(annexItem.id);
    // A general operator sees only the items of their building.
    const general = await list(auth.general, { limit: 500 });
    expect(general.items.map((i) => i.id)).not.toContain(annexItem.id);
    expect(general.items.map((i) => i.id)).toContain(mine.id);
    expect((await call('GET', `/check-items/${annexItem.id}`, auth.general)).statusCode).toBe(404);
    // The system administrator sees both.
    const all = await list(auth.sysAdmin, { limit: 500 });
    expect(all.items.map((i) => i.id)).toEqual(expect.arrayContaining([theirs.id, mine.id]));
  });

  it('filters by building, floor, status and type, and searches names', async () => {
    const tag = uniq('Filter');
    const a = await create({ name: `${tag} chiller A`, status: 0 });
    const b = await create({ name: `${tag} chiller B`, buildingId: annexId, floorId: annexFloorId, status: 1 });
    const c = await create({
      name: `${tag} door C`,
      type: 'visual',
      alerting: false,
      thresholdRuleId: null,
      status: 2,
    });
    const ids = async (where: Record<string, unknown>) =>
      (await list(auth.orgAdmin, { where: { name: { like: `%${tag}%` }, ...where } })).items.map((i) => i.id);
    expect(await ids({})).toEqual([a.id, b.id, c.id]);
    expect(await ids({ buildingId: annexId })).toEqual([b.id]);
    expect(await ids({ floorId: demoFloorId })).toEqual([a.id, c.id]);
    expect(await ids({ status: 0 })).toEqual([a.id]);
    expect(await ids({ status: { inq: [1, 2] } })).toEqual([b.id, c.id]);
    expect(await ids({ type: 'visual' })).toEqual([c.id]);
    expect(await ids({ name: { like: `%${tag} CHILLER%` } })).toEqual([a.id, b.id]);
    const page = await list(auth.orgAdmin, { where: { name: { like: `%${tag}%` } }, limit: 1, skip: 1 });
    expect(page).toEqual({ items: [expect.objectContaining({ id: b.id })], total: 3 });
    const bad = await call('GET', `/check-items?filter=${encodeURIComponent('{"where":{"secret":1}}')}`, auth.orgAdmin);
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).code).toBe('BAD_FILTER');
  });

  it('leaves an item without rule when its rule is deleted; saving it then asks for a rule', async () => {
    const rule = await insertRule(demoOrgId, uniq('Deleted rule'));
    const used = await create({ thresholdRuleId: rule });
    expect(await checkItemsUsingRule(t.db.kysely, rule)).toEqual([{ id: used.id, name: used.name }]);
    await t.db.kysely.deleteFrom('threshold_rules').where('id', '=', rule).execute();
    const got = checkItemSchema.parse((await call('GET', `/check-items/${used.id}`, auth.orgAdmin)).json());
    expect(got).toMatchObject({ alerting: true, thresholdRuleId: null });
    const { id: _id, organizationId: _o, buildingName: _b, floorName: _f, createdAt: _c, ...body } = got;
    const put = await call('PUT', `/check-items/${used.id}`, auth.orgAdmin, body);
    expect(put.statusCode).toBe(400);
    expect(errorOf(put).details).toContainEqual(
      expect.objectContaining({ path: 'thresholdRuleId', message: 'checkItemValidation.thresholdRequired' }),
    );
  });
});
