import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { triggerSchema, type InitData, type TriggerInput } from '@portal/contract';
import { createTestApp, errorOf, registerDemoRobot, type TestApp } from './helpers.ts';

/**
 * Triggers (issue 17; docs/api-triggers.md): CRUD with audit and versioning, roles (organization and
 * system administrators manage, everyone who sees the building reads), tenancy (another
 * organization's trigger is 404), validation (400 with field details, nothing written: the
 * unavailable event types, per-type required settings, references of another building).
 */
let t: TestApp;
const auth = { general: '', manager: '', orgAdmin: '', sysAdmin: '', otherAdmin: '' };
let buildingId: number;
let otherBuildingId: number;
let flowId: number;
let robotId: number;
let targetId: number;
let otherFlowId: number;

const otherData: InitData = {
  organization: { name: 'Other Triggers Org', type: 0, labOption: false },
  buildings: [{ name: 'Other Trigger Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
  operators: [
    {
      loginId: 'admin@other-tr.example',
      firstName: 'A',
      lastName: 'Other',
      password: 'Other-Admin-2026',
      type: 2,
      building: 0,
    },
  ],
};

const call: TestApp['call'] = (...args) => t.call(...args);

const input = (over: Partial<TriggerInput> = {}): TriggerInput => ({
  buildingId,
  name: 'E-stop: notify security',
  status: 1,
  eventType: 1,
  conditions: { version: 1, robotStatuses: ['emergencyStop'], robotId: null, robotGroupId: null },
  targetType: 1,
  target: { version: 1, targetIds: [targetId], level: 9, message: 'Go and look', flowId: null },
  ...over,
});

const count = async () =>
  Number(
    (
      await t.db.kysely
        .selectFrom('triggers')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function create(over: Partial<TriggerInput> = {}, authorization = auth.orgAdmin) {
  const res = await call('POST', '/triggers', authorization, input(over));
  expect(res.statusCode, res.body).toBe(201);
  return triggerSchema.parse(res.json());
}

/** A 400 VALIDATION_FAILED answered as `path:message`; nothing written. */
async function refused(method: 'POST' | 'PUT', url: string, body: unknown) {
  const before = await count();
  const res = await call(method, url, auth.orgAdmin, body);
  expect(res.statusCode, res.body).toBe(400);
  const e = errorOf(res);
  expect(e.code).toBe('VALIDATION_FAILED');
  expect(await count()).toBe(before);
  return (e.details ?? []).map((d) => `${d.path}:${d.message}`);
}

beforeAll(async () => {
  t = await createTestApp({ NOTIFY_TICK_MS: '0', SCHEDULE_TICK_MS: '0', EXPORT_TICK_MS: '0' });
  auth.sysAdmin = (await t.as('sysadmin@demo.example')).authorization;
  auth.orgAdmin = (await t.as('orgadmin@demo.example')).authorization;
  auth.manager = (await t.as('manager@demo.example')).authorization;
  auth.general = (await t.as('operator@demo.example')).authorization;
  const r = await registerDemoRobot(t, { serialNo: 'TRG-CRUD-1', name: 'Trigger robot', model: 'pro' });
  robotId = r.created.robot.id;
  buildingId = r.buildingId;
  const flow = await call('POST', '/flows', auth.orgAdmin, {
    name: 'Return to charger',
    description: '',
    buildingId,
    floorId: r.floorId,
    flowGroupId: null,
    enabled: true,
    definition: { version: 1, steps: [{ kind: 'wait', id: 'w', seconds: 1 }] },
  });
  expect(flow.statusCode, flow.body).toBe(201);
  flowId = flow.json<{ id: number }>().id;
  const b = await t.db.kysely
    .selectFrom('buildings')
    .select('organization_id')
    .where('id', '=', buildingId)
    .executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  targetId = (
    await t.db.kysely
      .insertInto('notification_targets')
      .values({
        organization_id: b.organization_id,
        building_id: buildingId,
        type: 0,
        level: 0,
        room: 'Security',
        address: 'security@demo.example',
        address_sealed: 0,
        bot_login_id: '',
        bot_password: null,
        space_id: '',
        language: 'en',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const imported = await call('POST', '/init-data', auth.sysAdmin, otherData);
  expect(imported.statusCode, imported.body).toBe(201);
  const login = await t.login('admin@other-tr.example', 'Other-Admin-2026');
  auth.otherAdmin = `Bearer ${login.json<{ token: string }>().token}`;
  otherBuildingId = (
    await t.db.kysely
      .selectFrom('buildings')
      .select('id')
      .where('name', '=', 'Other Trigger Building')
      .executeTakeFirstOrThrow()
  ).id;
  const otherFloor = await t.db.kysely
    .selectFrom('floors')
    .select('id')
    .where('building_id', '=', otherBuildingId)
    .executeTakeFirstOrThrow();
  const of = await call('POST', '/flows', auth.otherAdmin, {
    name: 'Other flow',
    description: '',
    buildingId: otherBuildingId,
    floorId: otherFloor.id,
    flowGroupId: null,
    enabled: true,
    definition: { version: 1, steps: [{ kind: 'wait', id: 'w', seconds: 1 }] },
  });
  expect(of.statusCode, of.body).toBe(201);
  otherFlowId = of.json<{ id: number }>().id;
});
afterAll(async () => {
  await t?.close();
});

describe('triggers', () => {
  it('creates, reads, lists, updates (versioned) and deletes a trigger, auditing each change', async () => {
    const created = await create();
    expect(created).toMatchObject({
      buildingId,
      name: 'E-stop: notify security',
      status: 1,
      eventType: 1,
      conditions: { version: 1, robotStatuses: ['emergencyStop'], robotId: null, scheduleId: null },
      targetType: 1,
      target: { version: 1, targetIds: [targetId], level: 9, message: 'Go and look', flowId: null, webhookId: null },
    });
    // Everyone who sees the building reads it.
    for (const a of [auth.general, auth.manager, auth.sysAdmin]) {
      const read = await call('GET', `/triggers/${created.id}`, a);
      expect(read.statusCode).toBe(200);
    }
    const filter = encodeURIComponent(JSON.stringify({ where: { buildingId } }));
    const list = await call('GET', `/triggers?filter=${filter}`, auth.general);
    expect(list.statusCode).toBe(200);
    expect(list.json<Array<{ id: number }>>().map((x) => x.id)).toContain(created.id);
    expect(Number(list.headers['x-total-count'])).toBeGreaterThanOrEqual(1);

    const up = await call('PUT', `/triggers/${created.id}`, auth.orgAdmin, {
      ...input({
        name: 'E-stop: return another robot',
        targetType: 0,
        target: { version: 1, flowId, robotChoice: 'otherIdle', targetIds: [], message: '' },
      }),
      buildingId: undefined,
      updatedAt: created.updatedAt,
    });
    expect(up.statusCode, up.body).toBe(200);
    const updated = triggerSchema.parse(up.json());
    // The stored settings are those of the new target type only.
    expect(updated.target).toMatchObject({ flowId, robotChoice: 'otherIdle', targetIds: [], level: null, message: '' });
    expect(updated.updatedAt).not.toBe(created.updatedAt);

    const stale = await call('PUT', `/triggers/${created.id}`, auth.orgAdmin, {
      ...input({ name: 'Lost' }),
      buildingId: undefined,
      updatedAt: created.updatedAt,
    });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).code).toBe('STALE_UPDATE');

    expect((await call('DELETE', `/triggers/${created.id}`, auth.orgAdmin)).statusCode).toBe(204);
    expect((await call('GET', `/triggers/${created.id}`, auth.orgAdmin)).statusCode).toBe(404);
    const entries = await t.db.kysely
      .selectFrom('audit_logs')
      .select(['action', 'target_name'])
      .where('target_type', '=', 'trigger')
      .where('target_id', '=', String(created.id))
      .orderBy('id')
      .execute();
    expect(entries.map((e) => e.action)).toEqual(['trigger.create', 'trigger.update', 'trigger.delete']);
    expect(entries[0]!.target_name).toBe('E-stop: notify security');
  });

  it('lets administrators manage and others only read (403), another organization sees 404', async () => {
    const tr = await create({ name: 'Roles' });
    for (const a of [auth.general, auth.manager]) {
      expect((await call('POST', '/triggers', a, input())).statusCode).toBe(403);
      expect(
        (await call('PUT', `/triggers/${tr.id}`, a, { ...input(), buildingId: undefined, updatedAt: tr.updatedAt }))
          .statusCode,
      ).toBe(403);
      expect((await call('DELETE', `/triggers/${tr.id}`, a)).statusCode).toBe(403);
    }
    // The system administrator manages any building's.
    const sys = await create({ name: 'By the system administrator' }, auth.sysAdmin);
    expect(sys.buildingId).toBe(buildingId);
    // Another organization: 404 on read, update and delete; its list does not hold it; it may not create in our building.
    expect((await call('GET', `/triggers/${tr.id}`, auth.otherAdmin)).statusCode).toBe(404);
    expect(
      (
        await call('PUT', `/triggers/${tr.id}`, auth.otherAdmin, {
          ...input(),
          buildingId: undefined,
          updatedAt: tr.updatedAt,
        })
      ).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/triggers/${tr.id}`, auth.otherAdmin)).statusCode).toBe(404);
    const list = await call('GET', '/triggers', auth.otherAdmin);
    expect(list.json<Array<{ id: number }>>().map((x) => x.id)).not.toContain(tr.id);
    const before = await count();
    expect((await call('POST', '/triggers', auth.otherAdmin, input())).statusCode).toBe(404);
    expect(await count()).toBe(before);
    expect((await call('GET', `/triggers/${tr.id}`, auth.orgAdmin)).statusCode).toBe(200);
  });

  it('refuses bad input with field details and writes nothing', async () => {
    // Calendar, chat and Teams have no integration yet.
    for (const eventType of [10, 11, 12])
      expect(await refused('POST', '/triggers', input({ eventType: eventType as never }))).toContain(
        'eventType:triggerValidation.notAvailable',
      );
    expect(await refused('POST', '/triggers', input({ eventType: 7 as never }))).toContain(
      'eventType:validation.invalid',
    );
    expect(await refused('POST', '/triggers', input({ name: '' }))).toContain('name:validation.required');
    expect(await refused('POST', '/triggers', input({ name: 'x'.repeat(65) }))).toContain('name:validation.max64');
    expect(
      await refused('POST', '/triggers', input({ conditions: { version: 1, robotStatuses: [] } as never })),
    ).toContain('conditions.robotStatuses:validation.required');
    expect(
      await refused('POST', '/triggers', input({ conditions: { version: 1, robotStatuses: ['onFire'] } as never })),
    ).toEqual(expect.arrayContaining([expect.stringMatching(/^conditions\.robotStatuses\.0:/)]));
    expect(await refused('POST', '/triggers', input({ conditions: { version: 2 } as never }))).toContain(
      'conditions.version:validation.invalid',
    );
    expect(await refused('POST', '/triggers', input({ targetType: 0, target: { version: 1 } as never }))).toEqual(
      expect.arrayContaining(['target.flowId:validation.required', 'target.robotChoice:validation.required']),
    );
    expect(
      await refused(
        'POST',
        '/triggers',
        input({ targetType: 0, target: { version: 1, flowId, robotChoice: 'robot' } as never }),
      ),
    ).toContain('target.robotId:validation.required');
    expect(await refused('POST', '/triggers', input({ targetType: 1, target: { version: 1 } as never }))).toEqual(
      expect.arrayContaining(['target.targetIds:validation.required', 'target.level:validation.required']),
    );
    expect(await refused('POST', '/triggers', input({ targetType: 3, target: { version: 1 } as never }))).toContain(
      'target.webhookId:validation.required',
    );
    expect(await refused('POST', '/triggers', input({ targetType: 9 as never }))).toContain(
      'targetType:validation.invalid',
    );
    // References must be of the building (or organization).
    expect(
      await refused(
        'POST',
        '/triggers',
        input({ targetType: 0, target: { version: 1, flowId: otherFlowId, robotChoice: 'eventRobot' } as never }),
      ),
    ).toContain('target.flowId:validation.notInBuilding');
    expect(
      await refused(
        'POST',
        '/triggers',
        input({ target: { version: 1, targetIds: [targetId, 999_999], level: 5 } as never }),
      ),
    ).toContain('target.targetIds:validation.notInBuilding');
    expect(
      await refused(
        'POST',
        '/triggers',
        input({ conditions: { version: 1, robotStatuses: ['lowBattery'], robotGroupId: 999_999 } as never }),
      ),
    ).toContain('conditions.robotGroupId:validation.notInBuilding');
    expect(
      await refused('POST', '/triggers', input({ targetType: 3, target: { version: 1, webhookId: 999_999 } as never })),
    ).toContain('target.webhookId:validation.notFound');
    // The robot of the building is accepted.
    const ok = await create({
      name: 'Named robot',
      conditions: { version: 1, robotStatuses: ['robotOffline', 'hardwareError'], robotId },
    });
    expect(ok.conditions).toMatchObject({ robotStatuses: ['robotOffline', 'hardwareError'], robotId });
    // Malformed JSON and wrong types are 400, not 500.
    const bad = await t.inject({
      method: 'POST',
      url: '/api/triggers',
      headers: { authorization: auth.orgAdmin, 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(bad.statusCode).toBe(400);
    // An update refusing the unavailable types too.
    expect(
      await refused('PUT', `/triggers/${ok.id}`, {
        ...input({ eventType: 11 as never }),
        buildingId: undefined,
        updatedAt: ok.updatedAt,
      }),
    ).toContain('eventType:triggerValidation.notAvailable');
  });
});
