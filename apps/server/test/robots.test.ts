import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import {
  createdRobotSchema,
  fleetRobotSchema,
  pendingRobotSchema,
  robotCredentialsSchema,
  robotSchema,
  robotSettingChangeSchema,
  type CreatedRobot,
  type InitData,
  type Robot,
  type RobotInput,
} from '@portal/contract';
import { ROBOT_MANUFACTURER } from '../src/modules/robots/credentials.ts';
import { createTestApp, demo, type TestApp, errorOf } from './helpers.ts';

/**
 * The robot registry: registration with broker credentials (shown once), validation, setting
 * history, concurrency, roles, tenancy (a second organization is imported), pending robots,
 * commands and the "in use" checks of buildings and floors.
 */
let t: TestApp;
const auth = { general: '', manager: '', orgAdmin: '', sysAdmin: '', otherAdmin: '' };
let demoOrgId: number;
let demoBuildingId: number;
let floor1F: number;
let floor2F: number;
let patrolGroup: number;
let annex: { id: number; floorId: number; groupId: number };
let other: { orgId: number; buildingId: number; floorId: number };

const otherData: InitData = {
  organization: { name: 'Other Robots Org', type: 0, labOption: false },
  buildings: [{ name: 'Other Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
  operators: [
    {
      loginId: 'admin@other-r.example',
      firstName: 'A',
      lastName: 'Other',
      password: 'Other-Admin-2026',
      type: 2,
      building: 0,
    },
  ],
};

const call: TestApp['call'] = (...args) => t.call(...args);

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

let serial = 0;
const nextSerial = () => `SN-${Date.now().toString(36)}-${++serial}`;

const input = (over: Partial<RobotInput> = {}): RobotInput => ({
  serialNo: nextSerial(),
  name: 'Patrol robot',
  model: 'pro',
  version: '2.4.1',
  hardwareRevision: '12',
  buildingId: demoBuildingId,
  floorId: floor1F,
  groupId: patrolGroup,
  status: 1,
  longTermRecordingAutoStart: false,
  videoMode: 'medium',
  notes: '',
  ...over,
});

async function createRobot(over: Partial<RobotInput> = {}, authorization = auth.orgAdmin): Promise<CreatedRobot> {
  const res = await call('POST', '/robots', authorization, input(over));
  expect(res.statusCode, res.body).toBe(201);
  return createdRobotSchema.parse(res.json());
}

const robotCount = async () =>
  Number(
    (
      await t.db.kysely
        .selectFrom('robots')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const auditOf = (action: string, targetId: number) =>
  t.db.kysely
    .selectFrom('audit_logs')
    .selectAll()
    .where('action', '=', action)
    .where('target_id', '=', String(targetId))
    .execute();

const listIds = async (authorization: string, filter?: unknown) => {
  const q = filter === undefined ? '' : `?filter=${encodeURIComponent(JSON.stringify(filter))}`;
  const res = await call('GET', `/robots${q}`, authorization);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Robot[]>().map((r) => r.id);
};

beforeAll(async () => {
  t = await createTestApp();
  auth.sysAdmin = (await t.as('sysadmin@demo.example')).authorization;
  auth.orgAdmin = (await t.as('orgadmin@demo.example')).authorization;
  auth.manager = (await t.as('manager@demo.example')).authorization;
  auth.general = (await t.as('operator@demo.example')).authorization;
  const db = t.db.kysely;
  const b = await db
    .selectFrom('buildings')
    .select(['id', 'organization_id'])
    .where('name', '=', 'Demo Tower')
    .executeTakeFirstOrThrow();
  demoBuildingId = b.id;
  demoOrgId = b.organization_id;
  const floors = await db.selectFrom('floors').select(['id', 'name']).where('building_id', '=', b.id).execute();
  floor1F = floors.find((f) => f.name === '1F')!.id;
  floor2F = floors.find((f) => f.name === '2F')!.id;
  patrolGroup = (
    await db
      .selectFrom('robot_groups')
      .select('id')
      .where('building_id', '=', b.id)
      .where('name', '=', 'Patrol')
      .executeTakeFirstOrThrow()
  ).id;

  // A second building of the demo organization, with its own floor and group.
  const created = await call('POST', '/buildings', auth.orgAdmin, {
    name: 'Robot Annex',
    prefecture: '',
    city: '',
    address: '',
    postalCode: '',
    latitude: null,
    longitude: null,
    organizationId: demoOrgId,
    status: 1,
  });
  expect(created.statusCode).toBe(201);
  const annexId = created.json<{ id: number }>().id;
  const floor = await call('POST', `/buildings/${annexId}/floors`, auth.orgAdmin, {
    name: 'A1',
    type: 'office',
    index: 1,
    resolution: null,
    originX: null,
    originY: null,
  });
  expect(floor.statusCode, floor.body).toBe(201);
  const group = await call('POST', '/robot-groups', auth.orgAdmin, { buildingId: annexId, name: 'Annex group' });
  expect(group.statusCode, group.body).toBe(201);
  annex = { id: annexId, floorId: floor.json<{ id: number }>().id, groupId: group.json<{ id: number }>().id };

  // Another organization, imported by the system administrator.
  const imported = await call('POST', '/init-data', auth.sysAdmin, otherData);
  expect(imported.statusCode).toBe(201);
  const orgId = imported.json<{ organizationId: number }>().organizationId;
  const ob = await db
    .selectFrom('buildings')
    .select('id')
    .where('organization_id', '=', orgId)
    .executeTakeFirstOrThrow();
  const of = await db.selectFrom('floors').select('id').where('building_id', '=', ob.id).executeTakeFirstOrThrow();
  other = { orgId, buildingId: ob.id, floorId: of.id };
  const login = await t.login('admin@other-r.example', 'Other-Admin-2026');
  expect(login.statusCode).toBe(200);
  auth.otherAdmin = `Bearer ${login.json<{ token: string }>().token}`;
});
afterAll(async () => {
  await t?.close();
});

describe('registering a robot', () => {
  it('answers the robot and its broker credentials once, storing only the password hash', async () => {
    const body = input({ notes: 'Lobby', videoMode: 'high', longTermRecordingAutoStart: true });
    const res = await call('POST', '/robots', auth.orgAdmin, body);
    expect(res.statusCode, res.body).toBe(201);
    const { robot, credentials } = createdRobotSchema.parse(res.json());
    expect(robot).toMatchObject({
      serialNo: body.serialNo,
      name: 'Patrol robot',
      model: 'pro',
      version: '2.4.1',
      hardwareRevision: '12',
      organizationId: demoOrgId,
      buildingId: demoBuildingId,
      buildingName: 'Demo Tower',
      floorId: floor1F,
      floorName: '1F',
      groupId: patrolGroup,
      groupName: 'Patrol',
      status: 1,
      longTermRecordingAutoStart: true,
      videoMode: 'high',
      notes: 'Lobby',
      mqttUsername: `robot-${body.serialNo}`,
      manufacturer: ROBOT_MANUFACTURER,
      lastCommunicationAt: null,
    });
    expect(robot.createdAt).toBe(robot.updatedAt);
    expect(credentials).toMatchObject({
      username: `robot-${body.serialNo}`,
      manufacturer: 'ugo',
      serialNumber: body.serialNo,
      interfaceName: 'uagv',
    });
    expect(credentials.mqttUrl).toMatch(/^(mqtts?|wss?|tcp):\/\//);
    // 32 random bytes, base64url.
    expect(credentials.password).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const row = await t.db.kysely.selectFrom('robots').selectAll().where('id', '=', robot.id).executeTakeFirstOrThrow();
    expect(row.mqtt_password_hash).toBe(sha256(credentials.password));
    expect(JSON.stringify(row)).not.toContain(credentials.password);

    const got = await call('GET', `/robots/${robot.id}`, auth.orgAdmin);
    expect(got.statusCode).toBe(200);
    expect(robotSchema.parse(got.json())).toEqual(robot);
    expect(got.body).not.toContain(credentials.password);
    expect(got.body).not.toMatch(/password/i);

    const [entry] = await auditOf('robot.create', robot.id);
    expect(entry).toMatchObject({ target_type: 'robot', organization_id: demoOrgId });
  });

  it('lets a system administrator register a robot in any organization; a robot without a group is fine', async () => {
    const { robot } = await createRobot(
      { buildingId: other.buildingId, floorId: other.floorId, groupId: null },
      auth.sysAdmin,
    );
    expect(robot).toMatchObject({ organizationId: other.orgId, groupId: null, groupName: null });
  });

  it('refuses invalid bodies with 400 VALIDATION_FAILED and details, creating nothing', async () => {
    const before = await robotCount();
    const cases: Array<[Partial<RobotInput> | Record<string, unknown>, string]> = [
      [{ serialNo: 'S'.repeat(25) }, 'serialNo'],
      [{ serialNo: 'bad serial!' }, 'serialNo'],
      [{ serialNo: 'a/b' }, 'serialNo'],
      [{ serialNo: '' }, 'serialNo'],
      [{ name: 'x'.repeat(41) }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ hardwareRevision: 'abc' }, 'hardwareRevision'],
      [{ hardwareRevision: '1234' }, 'hardwareRevision'],
      [{ model: 'x'.repeat(33) }, 'model'],
      [{ status: 3 as never }, 'status'],
      [{ videoMode: 'ultra' as never }, 'videoMode'],
      [{ floorId: annex.floorId }, 'floorId'],
      [{ groupId: annex.groupId }, 'groupId'],
      [{ floorId: 999_999 }, 'floorId'],
      [{ buildingId: 999_999 }, 'buildingId'],
      // Another organization's building is not in the organization administrator's scope.
      [{ buildingId: other.buildingId, floorId: other.floorId, groupId: null }, 'buildingId'],
    ];
    for (const [over, path] of cases) {
      const res = await call('POST', '/robots', auth.orgAdmin, input(over as Partial<RobotInput>));
      expect({ over, status: res.statusCode }).toEqual({ over, status: 400 });
      const err = errorOf(res);
      expect(err.code).toBe('VALIDATION_FAILED');
      expect(err.details?.map((d) => d.path)).toContain(path);
    }
    const wrongPlace = errorOf(
      await call('POST', '/robots', auth.orgAdmin, input({ floorId: annex.floorId, groupId: annex.groupId })),
    );
    expect(wrongPlace.details).toEqual([
      { path: 'floorId', message: 'validation.notInBuilding' },
      { path: 'groupId', message: 'validation.notInBuilding' },
    ]);
    const missing = await call('POST', '/robots', auth.orgAdmin, {});
    expect(missing.statusCode).toBe(400);
    expect(await robotCount()).toBe(before);
  });

  it('answers validation.* keys in the details, never raw schema texts (docs/api-robots.md)', async () => {
    const before = await robotCount();
    const expectKeys = (details: Array<{ path: string; message: string }> | undefined) => {
      expect(details?.length).toBeGreaterThan(0);
      for (const d of details ?? []) expect(d.message, d.path).toMatch(/^validation\.[A-Za-z0-9]+$/);
    };
    // Every field missing: each one is named with a key.
    const missing = errorOf(await call('POST', '/robots', auth.orgAdmin, {}));
    expect(missing.code).toBe('VALIDATION_FAILED');
    expectKeys(missing.details);
    expect(missing.details).toContainEqual(
      expect.objectContaining({ path: 'serialNo', message: 'validation.required' }),
    );
    expect(missing.details).toContainEqual(
      expect.objectContaining({ path: 'buildingId', message: 'validation.required' }),
    );
    expect(missing.details).toContainEqual(
      expect.objectContaining({ path: 'longTermRecordingAutoStart', message: 'validation.required' }),
    );
    // Wrong types and shapes.
    const wrong = errorOf(
      await call(
        'POST',
        '/robots',
        auth.orgAdmin,
        input({
          serialNo: 7,
          buildingId: 1.5,
          floorId: 'x',
          groupId: 'y',
          longTermRecordingAutoStart: 'yes',
          hardwareRevision: 12,
          version: 3,
          notes: false,
          name: 'n'.repeat(41),
        } as unknown as Partial<RobotInput>),
      ),
    );
    expectKeys(wrong.details);
    expect(wrong.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'buildingId', message: 'validation.integer' }),
        expect.objectContaining({ path: 'floorId', message: 'validation.invalid' }),
        expect.objectContaining({ path: 'groupId', message: 'validation.invalid' }),
        expect.objectContaining({ path: 'longTermRecordingAutoStart', message: 'validation.invalid' }),
        expect.objectContaining({ path: 'hardwareRevision', message: 'validation.hardwareRevision' }),
        expect.objectContaining({ path: 'name', message: 'validation.max40' }),
      ]),
    );
    expectKeys(errorOf(await call('POST', '/robots', auth.orgAdmin, [1, 2])).details);
    expect(await robotCount()).toBe(before);
  });

  it('refuses a serial number already registered (409 DUPLICATE) and frees it when the robot is deleted', async () => {
    const { robot } = await createRobot();
    const again = await call('POST', '/robots', auth.orgAdmin, input({ serialNo: robot.serialNo, name: 'Twin' }));
    expect(again.statusCode).toBe(409);
    expect(errorOf(again)).toMatchObject({
      code: 'DUPLICATE',
      details: [{ path: 'serialNo', message: 'validation.duplicate' }],
    });
    // Serials are unique across organizations too (they name broker topics).
    const elsewhere = await call(
      'POST',
      '/robots',
      auth.sysAdmin,
      input({ serialNo: robot.serialNo, buildingId: other.buildingId, floorId: other.floorId, groupId: null }),
    );
    expect(elsewhere.statusCode).toBe(409);
    // Another organization's administrator is not told that the serial is registered (enumeration).
    const otherOrg = await call(
      'POST',
      '/robots',
      auth.otherAdmin,
      input({ serialNo: robot.serialNo, buildingId: other.buildingId, floorId: other.floorId, groupId: null }),
    );
    expect(otherOrg.statusCode).toBe(400);
    expect(errorOf(otherOrg)).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: 'serialNo', message: 'validation.serialUnavailable' }],
    });
    expect((await call('DELETE', `/robots/${robot.id}`, auth.orgAdmin)).statusCode).toBe(204);
    const reused = await createRobot({ serialNo: robot.serialNo });
    expect(reused.robot.id).not.toBe(robot.id);
    expect(reused.robot.mqttUsername).toBe(robot.mqttUsername);
  });
});

describe('listing robots', () => {
  it('pages, filters (like on name and serial) and orders, with the total in x-total-count', async () => {
    const tag = `L${Date.now().toString(36)}`;
    const made: Robot[] = [];
    for (const name of ['Charlie', 'Alpha', 'Bravo']) {
      made.push((await createRobot({ name: `${tag} ${name}`, serialNo: `${tag}-${name}` })).robot);
    }
    const byName = { where: { name: { like: `${tag}%` } }, order: 'name ASC' };
    const res = await call('GET', `/robots?filter=${encodeURIComponent(JSON.stringify(byName))}`, auth.orgAdmin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    const rows = res.json<Robot[]>().map((r) => robotSchema.parse(r));
    expect(rows.map((r) => r.name)).toEqual([`${tag} Alpha`, `${tag} Bravo`, `${tag} Charlie`]);
    expect(rows[0]).toMatchObject({ buildingName: 'Demo Tower', floorName: '1F', groupName: 'Patrol' });

    expect(await listIds(auth.orgAdmin, { ...byName, order: 'name DESC', limit: 1, skip: 1 })).toEqual([made[2]!.id]);
    expect(await listIds(auth.orgAdmin, { where: { serialNo: { like: `${tag}-B%` } } })).toEqual([made[2]!.id]);
    expect(
      await listIds(auth.orgAdmin, { where: { and: [{ name: { like: `${tag}%` } }, { floorId: floor2F }] } }),
    ).toEqual([]);

    for (const bad of [{ where: { mqttUsername: 'x' } }, { where: { status: { like: '1' } } }, { fields: ['id'] }]) {
      const r = await call('GET', `/robots?filter=${encodeURIComponent(JSON.stringify(bad))}`, auth.orgAdmin);
      expect(r.statusCode).toBe(400);
      expect(errorOf(r).code).toBe('BAD_FILTER');
    }
  });
});

describe('changing a robot', () => {
  it('saves the changes, writes one setting-history row per changed field, and refuses stale versions', async () => {
    const { robot } = await createRobot({ notes: 'first' });
    const { id: _id, ...rest } = robot;
    void _id;
    const base = {
      serialNo: rest.serialNo,
      name: rest.name,
      model: rest.model,
      version: rest.version,
      hardwareRevision: rest.hardwareRevision,
      buildingId: rest.buildingId,
      floorId: rest.floorId,
      groupId: rest.groupId,
      status: rest.status,
      longTermRecordingAutoStart: rest.longTermRecordingAutoStart,
      videoMode: rest.videoMode,
      notes: rest.notes,
    };
    // Nothing changed: no history, the same version.
    const same = await call('PUT', `/robots/${robot.id}`, auth.orgAdmin, { ...base, updatedAt: robot.updatedAt });
    expect(same.statusCode).toBe(200);
    expect(robotSchema.parse(same.json()).updatedAt).toBe(robot.updatedAt);

    const res = await call('PUT', `/robots/${robot.id}`, auth.orgAdmin, {
      ...base,
      name: 'Renamed',
      status: 2,
      groupId: null,
      floorId: floor2F,
      longTermRecordingAutoStart: true,
      updatedAt: robot.updatedAt,
    });
    expect(res.statusCode, res.body).toBe(200);
    const updated = robotSchema.parse(res.json());
    expect(updated).toMatchObject({ name: 'Renamed', status: 2, groupId: null, groupName: null, floorName: '2F' });
    expect(updated.updatedAt > robot.updatedAt).toBe(true);

    const history = await call('GET', `/robots/${robot.id}/setting-history`, auth.general);
    expect(history.statusCode).toBe(200);
    expect(history.headers['x-total-count']).toBe('5');
    const changes = history.json<unknown[]>().map((c) => robotSettingChangeSchema.parse(c));
    const orgAdmin = demo('orgadmin@demo.example');
    expect(changes.map((c) => [c.field, c.oldValue, c.newValue]).sort()).toEqual(
      [
        ['floorId', String(floor1F), String(floor2F)],
        ['groupId', String(patrolGroup), null],
        ['longTermRecordingAutoStart', 'false', 'true'],
        ['name', 'Patrol robot', 'Renamed'],
        ['status', '1', '2'],
      ].sort(),
    );
    for (const c of changes) {
      expect(c).toMatchObject({
        robotId: robot.id,
        operatorName: `${orgAdmin.lastName} ${orgAdmin.firstName}`,
        changedAt: updated.updatedAt,
      });
    }

    // A stale version changes nothing.
    const stale = await call('PUT', `/robots/${robot.id}`, auth.orgAdmin, {
      ...base,
      name: 'Lost edit',
      updatedAt: robot.updatedAt,
    });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).code).toBe('STALE_UPDATE');
    expect(robotSchema.parse((await call('GET', `/robots/${robot.id}`, auth.orgAdmin)).json()).name).toBe('Renamed');

    // Newest first; the history's own filter.
    const next = await call('PUT', `/robots/${robot.id}`, auth.orgAdmin, {
      ...base,
      name: 'Renamed again',
      status: 2,
      groupId: null,
      floorId: floor2F,
      longTermRecordingAutoStart: true,
      updatedAt: updated.updatedAt,
    });
    expect(next.statusCode).toBe(200);
    const newest = await call(
      'GET',
      `/robots/${robot.id}/setting-history?filter=${encodeURIComponent(JSON.stringify({ limit: 1 }))}`,
      auth.orgAdmin,
    );
    expect(newest.json<Array<{ newValue: string }>>()).toMatchObject([{ field: 'name', newValue: 'Renamed again' }]);
    const byField = encodeURIComponent(JSON.stringify({ where: { field: 'name' } }));
    expect(
      (await call('GET', `/robots/${robot.id}/setting-history?filter=${byField}`, auth.orgAdmin))
        .json<Array<{ newValue: string }>>()
        .map((c) => c.newValue),
    ).toEqual(['Renamed again', 'Renamed']);
    expect((await auditOf('robot.update', robot.id)).length).toBe(2);
  });

  it('keeps the serial number fixed and validates the new placement', async () => {
    const { robot } = await createRobot();
    const body = { ...input({ serialNo: robot.serialNo }), updatedAt: robot.updatedAt };
    const renamed = await call('PUT', `/robots/${robot.id}`, auth.orgAdmin, {
      ...body,
      serialNo: `${robot.serialNo}X`,
    });
    expect(renamed.statusCode).toBe(400);
    expect(errorOf(renamed)).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: 'serialNo', message: 'validation.serialImmutable' }],
    });
    const wrongFloor = await call('PUT', `/robots/${robot.id}`, auth.orgAdmin, { ...body, buildingId: annex.id });
    expect(wrongFloor.statusCode).toBe(400);
    expect(errorOf(wrongFloor).details?.map((d) => d.path)).toEqual(['floorId', 'groupId']);
    const tooLong = await call('PUT', `/robots/${robot.id}`, auth.orgAdmin, { ...body, name: 'x'.repeat(41) });
    expect(tooLong.statusCode).toBe(400);
    const moved = await call('PUT', `/robots/${robot.id}`, auth.orgAdmin, {
      ...body,
      buildingId: annex.id,
      floorId: annex.floorId,
      groupId: annex.groupId,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(robotSchema.parse(moved.json())).toMatchObject({ buildingName: 'Robot Annex', groupName: 'Annex group' });
    expect((await call('PUT', '/robots/999999', auth.orgAdmin, body)).statusCode).toBe(404);
    await call('DELETE', `/robots/${robot.id}`, auth.orgAdmin);
  });

  it('rotates the broker password: a new one, answered once, and a different hash', async () => {
    const { robot, credentials } = await createRobot();
    const before = await t.db.kysely
      .selectFrom('robots')
      .select('mqtt_password_hash')
      .where('id', '=', robot.id)
      .executeTakeFirstOrThrow();
    const res = await call('POST', `/robots/${robot.id}/credentials`, auth.orgAdmin);
    expect(res.statusCode).toBe(200);
    const rotated = robotCredentialsSchema.parse(res.json());
    expect(rotated.username).toBe(credentials.username);
    expect(rotated.password).not.toBe(credentials.password);
    const after = await t.db.kysely
      .selectFrom('robots')
      .select('mqtt_password_hash')
      .where('id', '=', robot.id)
      .executeTakeFirstOrThrow();
    expect(after.mqtt_password_hash).not.toBe(before.mqtt_password_hash);
    expect(after.mqtt_password_hash).toBe(sha256(rotated.password));
    expect(await auditOf('robot.credentials', robot.id)).toHaveLength(1);
    for (const who of ['general', 'manager'] as const) {
      expect((await call('POST', `/robots/${robot.id}/credentials`, auth[who])).statusCode).toBe(403);
    }
  });

  it('deletes softly: gone from the API, row and history kept', async () => {
    const { robot } = await createRobot();
    await call('PUT', `/robots/${robot.id}`, auth.orgAdmin, {
      ...input({ serialNo: robot.serialNo, name: 'Before delete' }),
      updatedAt: robot.updatedAt,
    });
    const res = await call('DELETE', `/robots/${robot.id}`, auth.orgAdmin);
    expect(res.statusCode).toBe(204);
    expect((await call('GET', `/robots/${robot.id}`, auth.orgAdmin)).statusCode).toBe(404);
    expect((await call('DELETE', `/robots/${robot.id}`, auth.orgAdmin)).statusCode).toBe(404);
    expect(await listIds(auth.orgAdmin)).not.toContain(robot.id);
    const row = await t.db.kysely.selectFrom('robots').selectAll().where('id', '=', robot.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    const history = await t.db.kysely
      .selectFrom('robot_setting_history')
      .select('field')
      .where('robot_id', '=', robot.id)
      .execute();
    expect(history.length).toBeGreaterThan(0);
    expect(await auditOf('robot.delete', robot.id)).toHaveLength(1);
  });
});

describe('roles and tenancy', () => {
  it('lets only organization and system administrators register, change and delete robots', async () => {
    const { robot } = await createRobot();
    const before = await robotCount();
    for (const who of ['general', 'manager'] as const) {
      expect((await call('POST', '/robots', auth[who], input())).statusCode).toBe(403);
      expect(
        (
          await call('PUT', `/robots/${robot.id}`, auth[who], {
            ...input({ serialNo: robot.serialNo }),
            updatedAt: robot.updatedAt,
          })
        ).statusCode,
      ).toBe(403);
      expect((await call('DELETE', `/robots/${robot.id}`, auth[who])).statusCode).toBe(403);
    }
    expect(await robotCount()).toBe(before);
    expect((await call('GET', `/robots/${robot.id}`, auth.general)).statusCode).toBe(200);
  });

  it('shows a general operator only their building’s robots; managers their organization’s', async () => {
    const inTower = (await createRobot()).robot;
    const inAnnex = (await createRobot({ buildingId: annex.id, floorId: annex.floorId, groupId: null })).robot;
    const general = await listIds(auth.general);
    expect(general).toContain(inTower.id);
    expect(general).not.toContain(inAnnex.id);
    expect((await call('GET', `/robots/${inAnnex.id}`, auth.general)).statusCode).toBe(404);
    expect((await call('GET', `/robots/${inAnnex.id}/setting-history`, auth.general)).statusCode).toBe(404);
    expect((await call('POST', `/robots/${inAnnex.id}/commands`, auth.general, { command: 'pause' })).statusCode).toBe(
      404,
    );
    expect(await listIds(auth.general, { where: { buildingId: annex.id } })).toEqual([]);
    const manager = await listIds(auth.manager);
    expect(manager).toEqual(expect.arrayContaining([inTower.id, inAnnex.id]));
    expect((await call('GET', `/robots/${inAnnex.id}`, auth.manager)).statusCode).toBe(200);
    await call('DELETE', `/robots/${inAnnex.id}`, auth.orgAdmin);
  });

  it('answers 404 for another organization’s robot on every route and leaves it out of lists', async () => {
    const { robot } = await createRobot(
      { buildingId: other.buildingId, floorId: other.floorId, groupId: null },
      auth.sysAdmin,
    );
    const body = {
      ...input({ serialNo: robot.serialNo, buildingId: other.buildingId, floorId: other.floorId, groupId: null }),
      updatedAt: robot.updatedAt,
    };
    const attempts: Array<[InjectOptions['method'], string, unknown]> = [
      ['GET', `/robots/${robot.id}`, undefined],
      ['PUT', `/robots/${robot.id}`, body],
      ['DELETE', `/robots/${robot.id}`, undefined],
      ['POST', `/robots/${robot.id}/credentials`, undefined],
      ['POST', `/robots/${robot.id}/commands`, { command: 'pause' }],
      ['GET', `/robots/${robot.id}/setting-history`, undefined],
      ['GET', `/robots/fleet?buildingId=${other.buildingId}`, undefined],
    ];
    for (const [method, url, payload] of attempts) {
      const res = await call(method, url, auth.orgAdmin, payload);
      expect({ method, url, status: res.statusCode }).toEqual({ method, url, status: 404 });
      expect(errorOf(res).code).toBe('NOT_FOUND');
    }
    const after = await t.db.kysely
      .selectFrom('robots')
      .selectAll()
      .where('id', '=', robot.id)
      .executeTakeFirstOrThrow();
    expect(after.deleted_at).toBeNull();
    expect(after.updated_at).toBe(robot.updatedAt);
    expect(await listIds(auth.orgAdmin)).not.toContain(robot.id);
    expect(await listIds(auth.orgAdmin, { where: { organizationId: other.orgId } })).toEqual([]);
    expect(await listIds(auth.orgAdmin, { where: { id: robot.id } })).toEqual([]);
    const fleet = (await call('GET', '/robots/fleet', auth.orgAdmin)).json<Array<{ id: number }>>();
    expect(fleet.map((r) => r.id)).not.toContain(robot.id);
    // Its own organization sees it; the system administrator sees everything.
    const theirs = await t.db.kysely
      .selectFrom('robots')
      .select('id')
      .where('organization_id', '=', other.orgId)
      .where('deleted_at', 'is', null)
      .execute();
    expect((await listIds(auth.otherAdmin)).sort()).toEqual(theirs.map((r) => r.id).sort());
    expect(await listIds(auth.otherAdmin)).toContain(robot.id);
    expect(await listIds(auth.sysAdmin, { where: { id: robot.id } })).toEqual([robot.id]);
  });
});

describe('fleet and commands', () => {
  it('answers the fleet with live state, scoped and optionally for one building', async () => {
    const { robot } = await createRobot({ status: 1 });
    const res = await call('GET', '/robots/fleet', auth.general);
    expect(res.statusCode).toBe(200);
    const fleet = res.json<unknown[]>().map((r) => fleetRobotSchema.parse(r));
    expect(fleet.every((r) => r.buildingId === demoBuildingId)).toBe(true);
    const mine = fleet.find((r) => r.id === robot.id);
    expect(mine).toMatchObject({ serialNo: robot.serialNo, buildingName: 'Demo Tower', groupName: 'Patrol' });
    // Never connected: not online, status unknown.
    expect(mine?.live).toMatchObject({ robotId: robot.id, online: false, everSeen: false, statusLabel: 'unknown' });
    const tower = await call('GET', `/robots/fleet?buildingId=${demoBuildingId}`, auth.manager);
    expect(tower.json<Array<{ buildingId: number }>>().every((r) => r.buildingId === demoBuildingId)).toBe(true);
    expect((await call('GET', `/robots/fleet?buildingId=${annex.id}`, auth.general)).statusCode).toBe(404);
    expect((await call('GET', `/robots/fleet?buildingId=${annex.id}`, auth.manager)).statusCode).toBe(200);
    expect((await call('GET', '/robots/fleet?buildingId=abc', auth.manager)).statusCode).toBe(400);
  });

  it('refuses a command to a robot that never connected with 409 ROBOT_OFFLINE', async () => {
    const { robot } = await createRobot();
    for (const who of ['general', 'orgAdmin'] as const) {
      const res = await call('POST', `/robots/${robot.id}/commands`, auth[who], { command: 'pause' });
      expect(res.statusCode).toBe(409);
      expect(errorOf(res).code).toBe('ROBOT_OFFLINE');
    }
    const bad = await call('POST', `/robots/${robot.id}/commands`, auth.general, { command: 'selfDestruct' });
    expect(bad.statusCode).toBe(400);
    expect((await call('POST', '/robots/999999/commands', auth.general, { command: 'pause' })).statusCode).toBe(404);
  });
});

describe('path ids', () => {
  it('are decimal ids as written: 0x10, 1e3, 0 and 01 are 400 VALIDATION_FAILED, not another robot', async () => {
    const { robot } = await createRobot();
    for (const id of ['0x10', '1e3', '0', '01']) {
      for (const [method, url] of [
        ['GET', `/robots/${id}`],
        ['GET', `/robots/${id}/setting-history`],
        ['DELETE', `/robots/pending/${id}`],
        ['GET', `/robots/${id}/teleop`],
        ['DELETE', `/robots/${robot.id}/thermal-presets/${id}`],
      ] as const) {
        const res = await call(method, url, auth.sysAdmin);
        expect(res.statusCode, `${method} ${url}`).toBe(400);
        expect(errorOf(res).code).toBe('VALIDATION_FAILED');
      }
    }
  });
});

describe('robots awaiting registration', () => {
  it('are listed and dismissed by system administrators only', async () => {
    const at = new Date().toISOString();
    const row = await t.db.kysely
      .insertInto('pending_robots')
      .values({
        username: 'robot-UNKNOWN-1',
        client_id: 'c-1',
        ip: '192.0.2.7',
        attempts: 3,
        first_seen_at: at,
        last_seen_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const who of ['general', 'manager', 'orgAdmin'] as const) {
      expect((await call('GET', '/robots/pending', auth[who])).statusCode).toBe(403);
      expect((await call('DELETE', `/robots/pending/${row.id}`, auth[who])).statusCode).toBe(403);
    }
    const res = await call('GET', '/robots/pending', auth.sysAdmin);
    expect(res.statusCode).toBe(200);
    const list = res.json<unknown[]>().map((p) => pendingRobotSchema.parse(p));
    expect(list).toContainEqual({
      id: row.id,
      username: 'robot-UNKNOWN-1',
      clientId: 'c-1',
      ip: '192.0.2.7',
      attempts: 3,
      firstSeenAt: at,
      lastSeenAt: at,
    });
    expect((await call('DELETE', `/robots/pending/${row.id}`, auth.sysAdmin)).statusCode).toBe(204);
    expect((await call('DELETE', `/robots/pending/${row.id}`, auth.sysAdmin)).statusCode).toBe(404);
    expect(
      (await call('GET', '/robots/pending', auth.sysAdmin)).json<Array<{ id: number }>>().map((p) => p.id),
    ).not.toContain(row.id);
  });

  it('stop being pending once registered', async () => {
    const serialNo = nextSerial();
    const at = new Date().toISOString();
    await t.db.kysely
      .insertInto('pending_robots')
      .values({
        username: `robot-${serialNo}`,
        client_id: 'c-2',
        ip: '',
        attempts: 1,
        first_seen_at: at,
        last_seen_at: at,
      })
      .execute();
    await createRobot({ serialNo });
    const left = await t.db.kysely
      .selectFrom('pending_robots')
      .select('id')
      .where('username', '=', `robot-${serialNo}`)
      .execute();
    expect(left).toEqual([]);
  });
});

describe('buildings and floors in use', () => {
  it('refuses to delete a building or a floor robots still use, and deletes them once the robots are gone', async () => {
    const created = await call('POST', '/buildings', auth.orgAdmin, {
      name: 'Short-lived',
      prefecture: '',
      city: '',
      address: '',
      postalCode: '',
      latitude: null,
      longitude: null,
      organizationId: demoOrgId,
      status: 1,
    });
    const buildingId = created.json<{ id: number }>().id;
    const floor = await call('POST', `/buildings/${buildingId}/floors`, auth.orgAdmin, {
      name: 'S1',
      type: 'office',
      index: 1,
      resolution: null,
      originX: null,
      originY: null,
    });
    const floorId = floor.json<{ id: number }>().id;
    const { robot } = await createRobot({ buildingId, floorId, groupId: null });
    // History that must go with the building.
    await call('PUT', `/robots/${robot.id}`, auth.orgAdmin, {
      ...input({ serialNo: robot.serialNo, buildingId, floorId, groupId: null, name: 'Renamed' }),
      updatedAt: robot.updatedAt,
    });

    const building = await call('DELETE', `/buildings/${buildingId}`, auth.orgAdmin);
    expect(building.statusCode).toBe(409);
    expect(errorOf(building)).toMatchObject({
      code: 'IN_USE',
      details: [{ path: 'robots', message: 'validation.inUse', code: '1' }],
    });
    const floorRes = await call('DELETE', `/floors/${floorId}`, auth.orgAdmin);
    expect(floorRes.statusCode).toBe(409);
    expect(errorOf(floorRes)).toMatchObject({ code: 'IN_USE', details: [{ path: 'robots', code: '1' }] });

    expect((await call('DELETE', `/robots/${robot.id}`, auth.orgAdmin)).statusCode).toBe(204);
    expect((await call('DELETE', `/floors/${floorId}`, auth.orgAdmin)).statusCode).toBe(204);
    expect((await call('DELETE', `/buildings/${buildingId}`, auth.orgAdmin)).statusCode).toBe(204);
    const rows = await t.db.kysely.selectFrom('robots').select('id').where('id', '=', robot.id).execute();
    expect(rows).toEqual([]);
  });

  it('deletes a building whose deleted robots still reference it', async () => {
    const created = await call('POST', '/buildings', auth.orgAdmin, {
      name: 'Another short-lived',
      prefecture: '',
      city: '',
      address: '',
      postalCode: '',
      latitude: null,
      longitude: null,
      organizationId: demoOrgId,
      status: 1,
    });
    const buildingId = created.json<{ id: number }>().id;
    const floor = await call('POST', `/buildings/${buildingId}/floors`, auth.orgAdmin, {
      name: 'S1',
      type: 'office',
      index: 1,
      resolution: null,
      originX: null,
      originY: null,
    });
    const { robot } = await createRobot({ buildingId, floorId: floor.json<{ id: number }>().id, groupId: null });
    expect((await call('DELETE', `/robots/${robot.id}`, auth.orgAdmin)).statusCode).toBe(204);
    const res = await call('DELETE', `/buildings/${buildingId}`, auth.orgAdmin);
    expect(res.statusCode, res.body).toBe(204);
  });
});
