import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowSchema, type Flow, type FlowInput, type FlowStep, type InitData } from '@portal/contract';
import { demoMapDocument } from '../src/seed.ts';
import { createTestApp, errorOf, type TestApp } from './helpers.ts';

/**
 * Flows (issue 13; docs/api-flows.md): CRUD with audit, the definition checked against the
 * building (waypoints of the current floor's map, floors, speech texts), the definition rules, bad
 * input as 400 with nothing changed, versioning, enable, reorder, roles (flow editing restriction)
 * and tenancy.
 */
let t: TestApp;
const auth = { general: '', manager: '', orgAdmin: '', sysAdmin: '', otherAdmin: '' };
let buildingId: number;
let floor1: number;
let floor2: number;
let flowGroupId: number;
let annexId: number;
let annexFloor: number;
let annexGroupId: number;
let annexSpeechId: number;
let speechId: number;
let otherBuildingId: number;
let otherFloorId: number;
let generalOperatorId: number;
let orgId: number;

const otherData: InitData = {
  organization: { name: 'Other Flows Org', type: 0, labOption: false },
  buildings: [{ name: 'Other Flow Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
  operators: [
    {
      loginId: 'admin@other-f.example',
      firstName: 'A',
      lastName: 'Other',
      password: 'Other-Admin-2026',
      type: 2,
      building: 0,
    },
  ],
};

const floorBody = { type: 'office', resolution: null, originX: null, originY: null };
const call: TestApp['call'] = (...args) => t.call(...args);
let n = 0;
const uniq = (base: string) => `${base} ${++n}`;

const steps = (...s: FlowStep[]) => ({ version: 1 as const, steps: s });
const patrol = () =>
  steps(
    { kind: 'moveToWaypoint', id: 'a', waypointId: 3 },
    { kind: 'taskStart', id: 'b', name: 'Round' },
    { kind: 'takePhoto', id: 'c', camera: 'v1', resolution: '4k', saveAsTaskImage: true },
    { kind: 'taskEvent', id: 'd', level: 5, message: 'Door open' },
    { kind: 'taskComplete', id: 'e' },
    { kind: 'loop', id: 'f', count: 2, steps: [{ kind: 'followRoute', id: 'g', routeId: 1 }] },
    { kind: 'speak', id: 'h', speechTextId: speechId },
    { kind: 'moveToFloor', id: 'i', floorId: floor2, waypointId: 1 },
    { kind: 'wait', id: 'j', seconds: 30, detectPerson: { camera: 'g1', distanceM: 2 } },
    { kind: 'returnToCharger', id: 'k', onError: { policy: 'retry', retries: 3 } },
  );

const input = (over: Partial<FlowInput> = {}): FlowInput => ({
  name: uniq('Patrol'),
  description: 'Morning round',
  buildingId,
  floorId: floor1,
  flowGroupId,
  enabled: true,
  definition: patrol(),
  ...over,
});

async function createFlow(over: Partial<FlowInput> = {}, authorization = auth.orgAdmin): Promise<Flow> {
  const res = await call('POST', '/flows', authorization, input(over));
  expect(res.statusCode, res.body).toBe(201);
  return flowSchema.parse(res.json());
}

const flowCount = async () =>
  Number(
    (
      await t.db.kysely
        .selectFrom('flows')
        .select((eb) => eb.fn.countAll().as('n'))
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

/** The 400 answer's details as `path:message`. */
async function refused(method: 'POST' | 'PUT', url: string, body: unknown, authorization = auth.orgAdmin) {
  const res = await call(method, url, authorization, body);
  expect(res.statusCode, res.body).toBe(400);
  const e = errorOf(res);
  expect(e.code).toBe('VALIDATION_FAILED');
  return (e.details ?? []).map((d) => `${d.path}:${d.message}`);
}

beforeAll(async () => {
  t = await createTestApp();
  auth.sysAdmin = (await t.as('sysadmin@demo.example')).authorization;
  auth.orgAdmin = (await t.as('orgadmin@demo.example')).authorization;
  auth.manager = (await t.as('manager@demo.example')).authorization;
  const general = await t.as('operator@demo.example');
  auth.general = general.authorization;
  generalOperatorId = general.id;
  const db = t.db.kysely;
  const b = await db
    .selectFrom('buildings')
    .select(['id', 'organization_id'])
    .where('name', '=', 'Demo Tower')
    .executeTakeFirstOrThrow();
  buildingId = b.id;
  orgId = b.organization_id;
  const floors = await db
    .selectFrom('floors')
    .select(['id', 'name'])
    .where('building_id', '=', b.id)
    .orderBy('id')
    .execute();
  floor1 = floors.find((f) => f.name === '1F')!.id;
  floor2 = floors.find((f) => f.name === '2F')!.id;
  // Every demo floor has the demo map (waypoints 1-7, route 1); make sure of it for 1F and 2F.
  for (const floorId of [floor1, floor2]) {
    const has = await db
      .selectFrom('floor_map_revisions')
      .select('id')
      .where('floor_id', '=', floorId)
      .executeTakeFirst();
    if (!has)
      await db
        .insertInto('floor_map_revisions')
        .values({
          organization_id: b.organization_id,
          building_id: b.id,
          floor_id: floorId,
          revision: 1,
          document: JSON.stringify(demoMapDocument()),
          waypoint_count: 7,
          edge_count: 7,
          note: 'test',
          saved_by: null,
          saved_at: new Date().toISOString(),
        })
        .execute();
  }
  flowGroupId = (
    await db.selectFrom('flow_groups').select('id').where('building_id', '=', b.id).executeTakeFirstOrThrow()
  ).id;
  const speech = await call('POST', `/buildings/${buildingId}/speech-texts`, auth.orgAdmin, {
    language: 'ja',
    text: 'こんにちは',
  });
  expect(speech.statusCode, speech.body).toBe(201);
  speechId = speech.json<{ id: number }>().id;

  const annex = await call('POST', '/buildings', auth.orgAdmin, {
    name: 'Flow Annex',
    prefecture: '',
    city: '',
    address: '',
    postalCode: '',
    latitude: null,
    longitude: null,
    organizationId: b.organization_id,
    status: 1,
  });
  expect(annex.statusCode, annex.body).toBe(201);
  annexId = annex.json<{ id: number }>().id;
  const af = await call('POST', `/buildings/${annexId}/floors`, auth.orgAdmin, { ...floorBody, name: '1F', index: 1 });
  expect(af.statusCode, af.body).toBe(201);
  annexFloor = af.json<{ id: number }>().id;
  const ag = await call('POST', '/flow-groups', auth.orgAdmin, { buildingId: annexId, name: 'Annex group' });
  expect(ag.statusCode, ag.body).toBe(201);
  annexGroupId = ag.json<{ id: number }>().id;
  const as = await call('POST', `/buildings/${annexId}/speech-texts`, auth.orgAdmin, { language: 'en', text: 'Hello' });
  expect(as.statusCode, as.body).toBe(201);
  annexSpeechId = as.json<{ id: number }>().id;

  const imported = await call('POST', '/init-data', auth.sysAdmin, otherData);
  expect(imported.statusCode, imported.body).toBe(201);
  const login = await t.login('admin@other-f.example', 'Other-Admin-2026');
  expect(login.statusCode).toBe(200);
  auth.otherAdmin = `Bearer ${login.json<{ token: string }>().token}`;
  const ob = await db
    .selectFrom('buildings')
    .select('id')
    .where('name', '=', 'Other Flow Building')
    .executeTakeFirstOrThrow();
  otherBuildingId = ob.id;
  otherFloorId = (await db.selectFrom('floors').select('id').where('building_id', '=', ob.id).executeTakeFirstOrThrow())
    .id;
});
afterAll(async () => {
  await t?.close();
});

describe('flows', () => {
  it('creates, reads, lists, updates and deletes a flow, auditing each change', async () => {
    const body = input();
    const res = await call('POST', '/flows', auth.orgAdmin, body);
    expect(res.statusCode, res.body).toBe(201);
    const flow = flowSchema.parse(res.json());
    expect(flow).toMatchObject({
      name: body.name,
      buildingId,
      floorId: floor1,
      flowGroupId,
      enabled: true,
      definition: body.definition,
    });
    expect(flow.displayOrder).toBeGreaterThan(0);
    expect((await call('GET', `/flows/${flow.id}`, auth.general)).json()).toEqual(res.json());

    const filter = encodeURIComponent(JSON.stringify({ where: { buildingId, floorId: floor1 } }));
    const list = await call('GET', `/flows?filter=${filter}`, auth.orgAdmin);
    expect(list.statusCode).toBe(200);
    expect(list.json<Flow[]>().map((f) => f.id)).toContain(flow.id);

    const up = await call('PUT', `/flows/${flow.id}`, auth.orgAdmin, {
      ...input({ name: 'Renamed', definition: steps({ kind: 'returnToCharger', id: 'x' }) }),
      updatedAt: flow.updatedAt,
    });
    expect(up.statusCode, up.body).toBe(200);
    const updated = flowSchema.parse(up.json());
    expect(updated).toMatchObject({ name: 'Renamed', displayOrder: flow.displayOrder });
    expect(updated.updatedAt > flow.updatedAt).toBe(true);

    // Stale: based on the first version.
    const stale = await call('PUT', `/flows/${flow.id}`, auth.orgAdmin, {
      ...input({ name: 'Lost' }),
      updatedAt: flow.updatedAt,
    });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).code).toBe('STALE_UPDATE');
    expect((await call('GET', `/flows/${flow.id}`, auth.orgAdmin)).json<Flow>().name).toBe('Renamed');

    expect((await call('DELETE', `/flows/${flow.id}`, auth.orgAdmin)).statusCode).toBe(204);
    expect((await call('GET', `/flows/${flow.id}`, auth.orgAdmin)).statusCode).toBe(404);
    for (const action of ['flow.create', 'flow.update', 'flow.delete'])
      expect(await auditOf(action, flow.id)).toHaveLength(1);
    // The audit log names the flow, also once it is gone.
    expect((await auditOf('flow.delete', flow.id))[0]?.target_name).toBe('Renamed');
  });

  it('checks the names of the definition against the building: the floor map, floors, speech texts', async () => {
    const before = await flowCount();
    expect(
      await refused(
        'POST',
        '/flows',
        input({ definition: steps({ kind: 'moveToWaypoint', id: 'a', waypointId: 999 }) }),
      ),
    ).toEqual(['definition.steps.0.waypointId:flowValidation.notOnFloor']);
    expect(
      await refused(
        'POST',
        '/flows',
        input({
          definition: steps(
            { kind: 'moveToFloor', id: 'a', floorId: annexFloor, waypointId: 1 },
            { kind: 'speak', id: 'b', speechTextId: annexSpeechId },
            { kind: 'loop', id: 'c', count: null, steps: [{ kind: 'followRoute', id: 'd', routeId: 42 }] },
          ),
        }),
      ),
    ).toEqual([
      'definition.steps.0.floorId:validation.notInBuilding',
      'definition.steps.1.speechTextId:validation.notInBuilding',
      'definition.steps.2.steps.0.routeId:flowValidation.notOnFloor',
    ]);
    // The annex floor has no map: a waypoint there does not exist.
    expect(
      await refused(
        'POST',
        '/flows',
        input({
          buildingId: annexId,
          floorId: annexFloor,
          flowGroupId: null,
          definition: steps({ kind: 'moveToWaypoint', id: 'a', waypointId: 1 }),
        }),
      ),
    ).toEqual(['definition.steps.0.waypointId:flowValidation.notOnFloor']);
    expect(await flowCount()).toBe(before);
  });

  it('refuses definitions that break the rules: task brackets, person detection, work plans', async () => {
    const before = await flowCount();
    expect(
      await refused(
        'POST',
        '/flows',
        input({
          definition: steps(
            { kind: 'taskEvent', id: 'a', level: 9, message: 'x' },
            { kind: 'takePhoto', id: 'b', camera: 'v1', resolution: '720p', saveAsTaskImage: true },
            { kind: 'taskStart', id: 'c', name: 'T' },
            { kind: 'wait', id: 'd', seconds: 0, detectPerson: { camera: 's1', distanceM: 6 } },
            { kind: 'launchWorkPlan', id: 'e', workPlanId: 1 },
          ),
        }),
      ),
    ).toEqual([
      'definition.steps.0:flowValidation.outsideTask',
      'definition.steps.1.saveAsTaskImage:flowValidation.outsideTask',
      'definition.steps.3.detectPerson.distanceM:flowValidation.detectionDistance',
      'definition.steps.3.detectPerson.camera:flowValidation.detectionCamera',
      'definition.steps.2:flowValidation.taskNotClosed',
      // Work plan 1 is not one of the building's (modules/work-plans).
      'definition.steps.4.workPlanId:validation.notFound',
    ]);
    expect(await flowCount()).toBe(before);
  });

  it('answers bad input with 400 on the field, never a 500, and changes nothing', async () => {
    const before = await flowCount();
    expect(await refused('POST', '/flows', input({ name: 'x'.repeat(25) }))).toEqual(['name:validation.max24']);
    expect(await refused('POST', '/flows', input({ name: '  ' }))).toEqual(['name:validation.required']);
    expect(await refused('POST', '/flows', input({ floorId: annexFloor }))).toEqual([
      'floorId:flowValidation.floorBuilding',
    ]);
    expect(await refused('POST', '/flows', input({ flowGroupId: annexGroupId }))).toEqual([
      'flowGroupId:flowValidation.flowGroupBuilding',
    ]);
    expect(await refused('POST', '/flows', input({ buildingId: 999_999 }))).toEqual(['buildingId:validation.notFound']);
    expect(await refused('POST', '/flows', { ...input(), definition: { version: 2, steps: [] } })).toEqual([
      'definition.version:flowValidation.version',
    ]);
    expect(
      await refused('POST', '/flows', { ...input(), definition: { version: 1, steps: [{ kind: 'fly', id: 'a' }] } }),
    ).toEqual(['definition.steps.0.kind:flowValidation.unknownKind']);
    // Huge: more steps than a flow may hold.
    const many = Array.from({ length: 150 }, (_, i) => ({ kind: 'returnToCharger', id: `s${i}` }));
    const huge = {
      version: 1,
      steps: Array.from({ length: 4 }, (_, i) => ({
        kind: 'loop',
        id: `l${i}`,
        count: 1,
        steps: many.map((s) => ({ ...s, id: `${s.id}-${i}` })),
      })),
    };
    expect(await refused('POST', '/flows', { ...input(), definition: huge })).toEqual([
      'definition.steps:flowValidation.tooManySteps',
    ]);
    // Hostile: loops nested 2000 deep.
    let deep: unknown = { kind: 'returnToCharger', id: 'leaf' };
    for (let i = 0; i < 2000; i++) deep = { kind: 'loop', id: `d${i}`, count: 1, steps: [deep] };
    const deepDetails = await refused('POST', '/flows', { ...input(), definition: { version: 1, steps: [deep] } });
    expect(deepDetails.some((d) => d.endsWith(':flowValidation.tooDeep'))).toBe(true);
    expect(await flowCount()).toBe(before);
  });

  it('enables and disables a flow without changing its version', async () => {
    const flow = await createFlow();
    const res = await call('PUT', `/flows/${flow.id}/enabled`, auth.orgAdmin, { enabled: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Flow>()).toMatchObject({ enabled: false, updatedAt: flow.updatedAt });
    expect(await auditOf('flow.disable', flow.id)).toHaveLength(1);
    expect((await call('PUT', `/flows/${flow.id}/enabled`, auth.orgAdmin, { enabled: 'no' })).statusCode).toBe(400);
    // A description is optional (empty).
    const { description: _omitted, ...noDescription } = input();
    const bare = await call('POST', '/flows', auth.orgAdmin, noDescription);
    expect(bare.statusCode, bare.body).toBe(201);
    expect(bare.json<Flow>().description).toBe('');
  });

  it('reorders the flows of a floor in one go, refusing a list that is not exactly them', async () => {
    const a = await createFlow({ floorId: floor2, definition: steps() });
    const b = await createFlow({ floorId: floor2, definition: steps() });
    const c = await createFlow({ floorId: floor2, definition: steps() });
    const onFloor = async () => {
      const filter = encodeURIComponent(JSON.stringify({ where: { buildingId, floorId: floor2 } }));
      return (await call('GET', `/flows?filter=${filter}`, auth.orgAdmin)).json<Flow[]>().map((f) => f.id);
    };
    expect(await onFloor()).toEqual([a.id, b.id, c.id]);
    const res = await call('PUT', '/flows/order', auth.orgAdmin, {
      buildingId,
      floorId: floor2,
      ids: [c.id, a.id, b.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Flow[]>().map((f) => [f.id, f.displayOrder])).toEqual([
      [c.id, 1],
      [a.id, 2],
      [b.id, 3],
    ]);
    expect(await onFloor()).toEqual([c.id, a.id, b.id]);
    expect(await refused('PUT', '/flows/order', { buildingId, floorId: floor2, ids: [a.id, b.id] })).toEqual([
      'ids:flowValidation.reorderMismatch',
    ]);
    expect(await refused('PUT', '/flows/order', { buildingId, floorId: floor2, ids: [a.id, a.id, b.id] })).toEqual([
      'ids:validation.duplicate',
    ]);
    expect(await onFloor()).toEqual([c.id, a.id, b.id]);
  });

  it('lets general operators change their building’s flows unless their flow editing is restricted', async () => {
    const own = await createFlow({}, auth.general);
    expect((await call('PUT', `/flows/${own.id}/enabled`, auth.manager, { enabled: false })).statusCode).toBe(200);
    // Another building of the organization is not the general operator's.
    expect(
      await refused(
        'POST',
        '/flows',
        input({ buildingId: annexId, floorId: annexFloor, flowGroupId: null, definition: steps() }),
        auth.general,
      ),
    ).toEqual(['buildingId:validation.notFound']);
    const annexFlow = await createFlow({
      buildingId: annexId,
      floorId: annexFloor,
      flowGroupId: null,
      definition: steps(),
    });
    expect((await call('GET', `/flows/${annexFlow.id}`, auth.general)).statusCode).toBe(404);

    await t.db.kysely
      .updateTable('operators')
      .set({ flow_edit_restricted: 1 })
      .where('id', '=', generalOperatorId)
      .execute();
    try {
      const before = await flowCount();
      for (const res of [
        await call('POST', '/flows', auth.general, input()),
        await call('PUT', `/flows/${own.id}`, auth.general, { ...input(), updatedAt: own.updatedAt }),
        await call('PUT', `/flows/${own.id}/enabled`, auth.general, { enabled: true }),
        await call('DELETE', `/flows/${own.id}`, auth.general),
        await call('PUT', '/flows/order', auth.general, { buildingId, floorId: floor1, ids: [own.id] }),
      ]) {
        expect(res.statusCode, res.body).toBe(403);
        expect(errorOf(res).code).toBe('FLOW_EDIT_RESTRICTED');
      }
      expect(await flowCount()).toBe(before);
      // Reading is not restricted.
      expect((await call('GET', `/flows/${own.id}`, auth.general)).statusCode).toBe(200);
    } finally {
      await t.db.kysely
        .updateTable('operators')
        .set({ flow_edit_restricted: 0 })
        .where('id', '=', generalOperatorId)
        .execute();
    }
  });

  it('keeps flows within their organization', async () => {
    const flow = await createFlow();
    expect((await call('GET', `/flows/${flow.id}`, auth.otherAdmin)).statusCode).toBe(404);
    expect((await call('PUT', `/flows/${flow.id}/enabled`, auth.otherAdmin, { enabled: false })).statusCode).toBe(404);
    expect((await call('DELETE', `/flows/${flow.id}`, auth.otherAdmin)).statusCode).toBe(404);
    const list = await call('GET', '/flows', auth.otherAdmin);
    expect(list.json<Flow[]>().map((f) => f.id)).not.toContain(flow.id);
    expect(
      await refused('PUT', '/flows/order', { buildingId, floorId: floor1, ids: [flow.id] }, auth.otherAdmin),
    ).toEqual(['buildingId:validation.notFound']);
    const byGroup = encodeURIComponent(JSON.stringify({ where: { flowGroupId } }));
    expect((await call('GET', `/flows?filter=${byGroup}`, auth.otherAdmin)).json()).toEqual([]);
    const mine = await call('GET', `/flows?filter=${byGroup}`, auth.orgAdmin);
    expect(mine.json<Flow[]>().map((f) => f.id)).toContain(flow.id);
    expect(mine.json<Flow[]>().every((f) => f.flowGroupId === flowGroupId)).toBe(true);
    expect(
      await refused(
        'POST',
        '/flows',
        input({ buildingId: otherBuildingId, floorId: otherFloorId, flowGroupId: null, definition: steps() }),
      ),
    ).toEqual(['buildingId:validation.notFound']);
    expect((await call('GET', `/flows/${flow.id}`, auth.sysAdmin)).statusCode).toBe(200);
  });

  it('goes with its floor and loses a deleted flow group', async () => {
    const fl = await call('POST', `/buildings/${annexId}/floors`, auth.orgAdmin, {
      ...floorBody,
      name: '9F',
      index: 9,
    });
    expect(fl.statusCode, fl.body).toBe(201);
    const floorId = fl.json<{ id: number }>().id;
    const flow = await createFlow({ buildingId: annexId, floorId, flowGroupId: annexGroupId, definition: steps() });
    expect((await call('DELETE', `/flow-groups/${annexGroupId}`, auth.orgAdmin)).statusCode).toBe(204);
    expect((await call('GET', `/flows/${flow.id}`, auth.orgAdmin)).json<Flow>().flowGroupId).toBeNull();
    expect((await call('DELETE', `/floors/${floorId}`, auth.orgAdmin)).statusCode).toBe(204);
    expect((await call('GET', `/flows/${flow.id}`, auth.orgAdmin)).statusCode).toBe(404);
  });

  it('keeps a building with flows from being deleted (its flows are counted like its robots)', async () => {
    const b = await call('POST', '/buildings', auth.orgAdmin, {
      name: uniq('Flow Doomed'),
      prefecture: '',
      city: '',
      address: '',
      postalCode: '',
      latitude: null,
      longitude: null,
      organizationId: orgId,
      status: 1,
    });
    expect(b.statusCode, b.body).toBe(201);
    const id = b.json<{ id: number }>().id;
    const fl = await call('POST', `/buildings/${id}/floors`, auth.orgAdmin, { ...floorBody, name: '1F', index: 1 });
    const flow = await createFlow({
      buildingId: id,
      floorId: fl.json<{ id: number }>().id,
      flowGroupId: null,
      definition: steps(),
    });
    const refusedDelete = await call('DELETE', `/buildings/${id}`, auth.orgAdmin);
    expect(refusedDelete.statusCode).toBe(409);
    expect(errorOf(refusedDelete).details).toEqual([{ path: 'flows', message: 'validation.inUse', code: '1' }]);
    expect((await call('DELETE', `/flows/${flow.id}`, auth.orgAdmin)).statusCode).toBe(204);
    expect((await call('DELETE', `/buildings/${id}`, auth.orgAdmin)).statusCode).toBe(204);
  });
});
