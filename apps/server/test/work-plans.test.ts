import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUILTIN_WORK_PLAN_TEMPLATES,
  workPlanSchema,
  workPlanTemplateSchema,
  type InitData,
  type WorkPlan,
  type WorkPlanDefinition,
  type WorkPlanInput,
  type WorkPlanTemplate,
} from '@portal/contract';
import { demoMapDocument } from '../src/seed.ts';
import { createTestApp, errorOf, registerDemoRobot, type TestApp } from './helpers.ts';

/**
 * Work plans and templates: the shipped templates, CRUD with audit entries, the rules (name,
 * building, floor, definition required; the schema; the floor of the building; waypoints of the
 * floor's map), roles (organization and system administrators change, others read), tenancy
 * (another organization's plan is 404), stale edits (409) and bad input (400, nothing changed).
 */
let t: TestApp;
const auth = { general: '', manager: '', orgAdmin: '', sysAdmin: '', otherAdmin: '' };
let buildingId: number;
let floor1: number;
let floor2: number;
let otherBuildingId: number;
let otherFloorId: number;
let n = 0;
const uniq = (base: string) => `${base} ${++n}`;
const call: TestApp['call'] = (...args) => t.call(...args);

const otherData: InitData = {
  organization: { name: 'Other WP Org', type: 0, labOption: false },
  buildings: [{ name: 'Other WP Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
  operators: [
    {
      loginId: 'admin@other-wp.example',
      firstName: 'A',
      lastName: 'Other',
      password: 'Other-Admin-2026',
      type: 2,
      building: 0,
    },
  ],
};

const definition = (waypointId: number | null = 3): WorkPlanDefinition => ({
  version: 1,
  steps: [
    {
      id: 'go',
      title: 'Go to the elevator hall',
      type: 'move',
      main: { kind: 'moveToWaypoint', waypointId },
      auxiliary: [{ kind: 'speak', id: 'say', text: 'Hello', language: 'en' }],
      before: { pose: null },
      after: { waitSeconds: 0 },
    },
    {
      id: 'press',
      title: 'Press the call button',
      type: 'pressRight',
      main: { kind: 'pressButton', target: 'call' },
      auxiliary: [],
      before: { pose: { kind: 'pose', id: 'p', target: 'gimbal', pan: 0, tilt: -20 } },
      after: { waitSeconds: 5 },
    },
  ],
});

const input = (over: Partial<WorkPlanInput> = {}): WorkPlanInput => ({
  name: uniq('Elevator to 3F'),
  description: 'Ride up',
  buildingId,
  floorId: floor1,
  icon: 'elevator',
  type: 0,
  status: 1,
  definition: definition(),
  templateId: null,
  ...over,
});

async function create(over: Partial<WorkPlanInput> = {}, authorization = auth.orgAdmin): Promise<WorkPlan> {
  const res = await call('POST', '/work-plans', authorization, input(over));
  expect(res.statusCode, res.body).toBe(201);
  return workPlanSchema.parse(res.json());
}

async function refused(method: 'POST' | 'PUT', url: string, body: unknown, authorization = auth.orgAdmin) {
  const res = await call(method, url, authorization, body);
  expect(res.statusCode, res.body).toBe(400);
  const e = errorOf(res);
  expect(e.code).toBe('VALIDATION_FAILED');
  return (e.details ?? []).map((d) => `${d.path}:${d.message}`);
}

const count = async (table: 'work_plans' | 'work_plan_templates') =>
  Number(
    (
      await t.db.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

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
  buildingId = b.id;
  const floors = await db.selectFrom('floors').select(['id', 'name']).where('building_id', '=', b.id).execute();
  floor1 = floors.find((f) => f.name === '1F')!.id;
  floor2 = floors.find((f) => f.name === '2F')!.id;
  const has = await db.selectFrom('floor_map_revisions').select('id').where('floor_id', '=', floor1).executeTakeFirst();
  if (!has)
    await db
      .insertInto('floor_map_revisions')
      .values({
        organization_id: b.organization_id,
        building_id: b.id,
        floor_id: floor1,
        revision: 1,
        document: JSON.stringify(demoMapDocument()),
        waypoint_count: 7,
        edge_count: 7,
        note: 'test',
        saved_by: null,
        saved_at: new Date().toISOString(),
      })
      .execute();
  const imported = await call('POST', '/init-data', auth.sysAdmin, otherData);
  expect(imported.statusCode, imported.body).toBe(201);
  const otherOrgId = imported.json<{ organizationId: number }>().organizationId;
  otherBuildingId = (
    await db.selectFrom('buildings').select('id').where('organization_id', '=', otherOrgId).executeTakeFirstOrThrow()
  ).id;
  otherFloorId = (
    await db.selectFrom('floors').select('id').where('building_id', '=', otherBuildingId).executeTakeFirstOrThrow()
  ).id;
  const login = await t.login('admin@other-wp.example', 'Other-Admin-2026');
  expect(login.statusCode).toBe(200);
  auth.otherAdmin = `Bearer ${login.json<{ token: string }>().token}`;
});
afterAll(async () => {
  await t?.close();
});

describe('work plan templates', () => {
  it('ships the elevator ride, door pass and meter check templates to everyone, read-only', async () => {
    for (const a of [auth.general, auth.otherAdmin]) {
      const res = await call('GET', '/work-plan-templates', a);
      expect(res.statusCode, res.body).toBe(200);
      const keys = res.json<WorkPlanTemplate[]>().map((x) => x.builtinKey);
      for (const b of BUILTIN_WORK_PLAN_TEMPLATES) expect(keys).toContain(b.key);
    }
    const all = (await call('GET', '/work-plan-templates', auth.sysAdmin)).json<WorkPlanTemplate[]>();
    // The migration stores a frozen copy of the contract's shipped templates: a change of one in the
    // contract needs a migration of its own, and this says so.
    for (const b of BUILTIN_WORK_PLAN_TEMPLATES) {
      const stored = all.find((x) => x.builtinKey === b.key)!;
      expect({
        name: stored.name,
        description: stored.description,
        type: stored.type,
        definition: stored.definition,
      }).toEqual({ name: b.name, description: b.description, type: b.type, definition: b.definition });
    }
    const elevator = all.find((x) => x.builtinKey === 'elevatorRide')!;
    expect(elevator.type).toBe(0);
    expect(elevator.definition.steps.map((s) => s.type)).toContain('pressRight');
    const res = await call('PUT', `/work-plan-templates/${elevator.id}`, auth.sysAdmin, {
      name: 'x',
      type: 0,
      definition: elevator.definition,
      updatedAt: elevator.updatedAt,
    });
    expect(res.statusCode).toBe(403);
    expect((await call('DELETE', `/work-plan-templates/${elevator.id}`, auth.sysAdmin)).statusCode).toBe(403);
  });

  it('lets organization administrators keep their own templates, unseen by other organizations', async () => {
    const created = await call('POST', '/work-plan-templates', auth.orgAdmin, {
      name: 'Our door',
      description: 'The back door',
      type: 1,
      definition: definition(null),
    });
    expect(created.statusCode, created.body).toBe(201);
    const tpl = workPlanTemplateSchema.parse(created.json());
    expect(tpl.organizationId).not.toBeNull();
    expect((await call('GET', `/work-plan-templates/${tpl.id}`, auth.otherAdmin)).statusCode).toBe(404);
    expect((await call('GET', `/work-plan-templates/${tpl.id}`, auth.general)).statusCode).toBe(200);
    expect(
      (await call('POST', '/work-plan-templates', auth.manager, { name: 'x', type: 1, definition: definition(null) }))
        .statusCode,
    ).toBe(403);
    const updated = await call('PUT', `/work-plan-templates/${tpl.id}`, auth.orgAdmin, {
      name: 'Our back door',
      type: 1,
      definition: definition(null),
      updatedAt: tpl.updatedAt,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const stale = await call('PUT', `/work-plan-templates/${tpl.id}`, auth.orgAdmin, {
      name: 'Stale',
      type: 1,
      definition: definition(null),
      updatedAt: tpl.updatedAt,
    });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).code).toBe('STALE_UPDATE');
    expect((await call('DELETE', `/work-plan-templates/${tpl.id}`, auth.otherAdmin)).statusCode).toBe(404);
    expect((await call('DELETE', `/work-plan-templates/${tpl.id}`, auth.orgAdmin)).statusCode).toBe(204);
  });

  it('refuses a template with a malformed definition (400, nothing stored)', async () => {
    const before = await count('work_plan_templates');
    const details = await refused('POST', '/work-plan-templates', {
      name: 'Bad',
      type: 1,
      definition: {
        version: 2,
        steps: [
          {
            id: 'a',
            title: 't',
            type: 'pressLeft',
            main: { kind: 'manualCheck', instruction: 'x' },
            auxiliary: [],
            before: { pose: null },
            after: { waitSeconds: 0 },
          },
        ],
      },
    });
    expect(details).toContain('definition.version:workPlanValidation.version');
    expect(await count('work_plan_templates')).toBe(before);
  });
});

describe('work plans', () => {
  it('creates, reads, updates and deletes a work plan, auditing each change', async () => {
    const body = input();
    const plan = await create(body);
    expect(plan).toMatchObject({
      name: body.name,
      buildingId,
      buildingName: 'Demo Tower',
      floorId: floor1,
      floorName: '1F',
      icon: 'elevator',
      type: 0,
      status: 1,
      templateId: null,
    });
    expect(plan.definition.steps).toHaveLength(2);
    expect((await call('GET', `/work-plans/${plan.id}`, auth.general)).statusCode).toBe(200);
    const res = await call('PUT', `/work-plans/${plan.id}`, auth.orgAdmin, {
      ...input({ name: 'Renamed plan', status: 0 }),
      updatedAt: plan.updatedAt,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<WorkPlan>()).toMatchObject({ name: 'Renamed plan', status: 0 });
    const stale = await call('PUT', `/work-plans/${plan.id}`, auth.orgAdmin, { ...input(), updatedAt: plan.updatedAt });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).code).toBe('STALE_UPDATE');
    const list = await call(
      'GET',
      `/work-plans?filter=${encodeURIComponent(JSON.stringify({ where: { floorId: floor1, status: 0 } }))}`,
      auth.manager,
    );
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<WorkPlan[]>().map((p) => p.id)).toContain(plan.id);
    expect((await call('DELETE', `/work-plans/${plan.id}`, auth.orgAdmin)).statusCode).toBe(204);
    expect((await call('GET', `/work-plans/${plan.id}`, auth.orgAdmin)).statusCode).toBe(404);
    const actions = await t.db.kysely
      .selectFrom('audit_logs')
      .select('action')
      .where('target_type', '=', 'work-plan')
      .where('target_id', '=', String(plan.id))
      .execute();
    expect(actions.map((a) => a.action).sort()).toEqual(['workPlan.create', 'workPlan.delete', 'workPlan.update']);
  });

  it('makes a plan from a shipped template once its waypoints are chosen', async () => {
    const tpls = (await call('GET', '/work-plan-templates', auth.orgAdmin)).json<WorkPlanTemplate[]>();
    const tpl = tpls.find((x) => x.builtinKey === 'elevatorRide')!;
    const open = await refused('POST', '/work-plans', input({ templateId: tpl.id, definition: tpl.definition }));
    expect(open).toEqual(['definition.steps.0.main.waypointId:workPlanValidation.waypointRequired']);
    const def = structuredClone(tpl.definition);
    const first = def.steps[0]!;
    if (first.main.kind === 'moveToWaypoint') first.main.waypointId = 2;
    const plan = await create({ templateId: tpl.id, definition: def });
    expect(plan.templateId).toBe(tpl.id);
  });

  it('enforces the rules: required fields, the floor of the building, waypoints of the floor, the schema', async () => {
    const before = await count('work_plans');
    expect(
      await refused('POST', '/work-plans', { ...input(), name: '  ', buildingId: undefined, definition: undefined }),
    ).toEqual(
      expect.arrayContaining([
        'name:validation.required',
        'buildingId:validation.number',
        'definition:validation.required',
      ]),
    );
    expect(await refused('POST', '/work-plans', input({ floorId: otherFloorId }))).toEqual([
      'floorId:flowValidation.floorBuilding',
    ]);
    expect(await refused('POST', '/work-plans', input({ buildingId: otherBuildingId, floorId: otherFloorId }))).toEqual(
      ['buildingId:validation.notFound'],
    );
    expect(await refused('POST', '/work-plans', input({ definition: definition(999) }))).toEqual([
      'definition.steps.0.main.waypointId:workPlanValidation.waypointFloor',
    ]);
    const bad = definition();
    (bad.steps[1] as { type: string }).type = 'manual';
    expect(await refused('POST', '/work-plans', input({ definition: bad }))).toEqual([
      'definition.steps.1.main.kind:workPlanValidation.mainForType',
    ]);
    expect(
      await refused('POST', '/work-plans', input({ definition: { version: 1, steps: 'x' } as never })),
    ).toHaveLength(1);
    expect(await refused('POST', '/work-plans', input({ icon: 'rocket' as never }))).toEqual([
      'icon:validation.required',
    ]);
    expect(await count('work_plans')).toBe(before);
  });

  it('lets only organization and system administrators change plans; others read their own scope', async () => {
    const plan = await create();
    for (const a of [auth.manager, auth.general]) {
      expect((await call('POST', '/work-plans', a, input())).statusCode).toBe(403);
      expect(
        (await call('PUT', `/work-plans/${plan.id}`, a, { ...input(), updatedAt: plan.updatedAt })).statusCode,
      ).toBe(403);
      expect((await call('DELETE', `/work-plans/${plan.id}`, a)).statusCode).toBe(403);
    }
    expect((await call('GET', `/work-plans/${plan.id}`, auth.manager)).statusCode).toBe(200);
    const sys = await call('PUT', `/work-plans/${plan.id}`, auth.sysAdmin, {
      ...input({ floorId: floor2, definition: { version: 1, steps: [] } }),
      updatedAt: plan.updatedAt,
    });
    expect(sys.statusCode, sys.body).toBe(200);
  });

  it('hides another organization’s plans (404) and keeps them out of lists', async () => {
    const plan = await create();
    expect((await call('GET', `/work-plans/${plan.id}`, auth.otherAdmin)).statusCode).toBe(404);
    expect(
      (await call('PUT', `/work-plans/${plan.id}`, auth.otherAdmin, { ...input(), updatedAt: plan.updatedAt }))
        .statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/work-plans/${plan.id}`, auth.otherAdmin)).statusCode).toBe(404);
    const list = await call('GET', '/work-plans', auth.otherAdmin);
    expect(list.json<WorkPlan[]>().map((p) => p.id)).not.toContain(plan.id);
    expect(Number(list.headers['x-total-count'])).toBe(list.json<WorkPlan[]>().length);
  });
});

describe('work plan runs', () => {
  let robotId = 0;
  async function robotOfDemoTower(): Promise<number> {
    if (robotId === 0)
      robotId = (await registerDemoRobot(t, { serialNo: 'WP-RUN-1', name: 'WP robot', model: 'pro' })).created.robot.id;
    return robotId;
  }

  it('starts a run, checks the confirmed steps, keeps it after a reload and closes it', async () => {
    const plan = await create();
    const robotId = await robotOfDemoTower();
    const started = await call('POST', '/work-plan-runs', auth.general, { workPlanId: plan.id, robotId });
    expect(started.statusCode, started.body).toBe(201);
    const run = started.json<{ id: number; status: string; currentStep: number; doneSteps: string[] }>();
    expect(run).toMatchObject({ status: 'open', currentStep: 0, doneSteps: [] });
    // One open run per robot.
    expect((await call('POST', '/work-plan-runs', auth.orgAdmin, { workPlanId: plan.id, robotId })).statusCode).toBe(
      409,
    );
    const step1 = await call('POST', `/work-plan-runs/${run.id}/steps`, auth.general, { stepId: 'go' });
    expect(step1.json()).toMatchObject({ currentStep: 1, doneSteps: ['go'] });
    expect((await call('POST', `/work-plan-runs/${run.id}/steps`, auth.general, { stepId: 'nope' })).statusCode).toBe(
      400,
    );
    // Durable: read back from the database by another operator of the organization.
    const again = await call('GET', `/work-plan-runs/${run.id}`, auth.manager);
    expect(again.json()).toMatchObject({ status: 'open', currentStep: 1, doneSteps: ['go'] });
    const open = await call(
      'GET',
      `/work-plan-runs?filter=${encodeURIComponent(JSON.stringify({ where: { robotId, status: 'open' } }))}`,
      auth.general,
    );
    expect(open.json<Array<{ id: number }>>().map((r) => r.id)).toEqual([run.id]);
    await call('POST', `/work-plan-runs/${run.id}/steps`, auth.general, { stepId: 'press' });
    const closed = await call('POST', `/work-plan-runs/${run.id}/close`, auth.general);
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ status: 'closed', currentStep: 2, doneSteps: ['go', 'press'] });
    expect((await call('POST', `/work-plan-runs/${run.id}/steps`, auth.general, { stepId: 'go' })).statusCode).toBe(
      409,
    );
    expect((await call('GET', `/work-plan-runs/${run.id}`, auth.otherAdmin)).statusCode).toBe(404);
  });

  it('refuses a disabled plan, a robot of another building and another tenant’s robot', async () => {
    const robotId = await robotOfDemoTower();
    const disabled = await create({ status: 0 });
    expect(await refused('POST', '/work-plan-runs', { workPlanId: disabled.id, robotId })).toEqual([
      'workPlanId:workPlanValidation.disabled',
    ]);
    const plan = await create();
    expect(await refused('POST', '/work-plan-runs', { workPlanId: plan.id, robotId }, auth.otherAdmin)).toEqual([
      'robotId:validation.notFound',
    ]);
  });
});
