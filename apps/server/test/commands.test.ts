import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commandSchema,
  flowSchema,
  type Command,
  type CommandInput,
  type CommandUsage,
  type Flow,
  type InitData,
} from '@portal/contract';
import { createTestApp, errorOf, type TestApp } from './helpers.ts';

/**
 * The command library (issue 13; docs/api-flows.md "Commands"): CRUD with audit, versioning,
 * scopes and roles (system commands, alpha/development scopes for system administrators, what
 * general operators read), list filters, use by flows (usage, delete refused while used, the
 * flow's check of command and parameters), bad input and tenancy.
 */
let t: TestApp;
const auth = { general: '', manager: '', orgAdmin: '', sysAdmin: '', otherAdmin: '' };
let demoOrgId: number;
let buildingId: number;
let floorId: number;

const otherData: InitData = {
  organization: { name: 'Other Commands Org', type: 0, labOption: false },
  buildings: [{ name: 'Other Command Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
  operators: [
    {
      loginId: 'admin@other-c.example',
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

const input = (over: Partial<CommandInput> = {}): CommandInput => ({
  name: uniq('Greet'),
  description: 'Say hello at the entrance',
  category: 100,
  scope: 0,
  modelsAllowed: [],
  parameters: [{ name: 'volume', type: 'number', preset: 50, min: 0, max: 100 }],
  definition: {
    version: 1,
    steps: [
      { kind: 'face', id: 'a', expression: 'smile' },
      { kind: 'speak', id: 'b', text: 'Welcome', language: 'en' },
    ],
  },
  status: 1,
  ...over,
});

async function createCommand(over: Partial<CommandInput> = {}, authorization = auth.orgAdmin): Promise<Command> {
  const res = await call('POST', '/commands', authorization, input(over));
  expect(res.statusCode, res.body).toBe(201);
  return commandSchema.parse(res.json());
}

async function createFlowUsing(commandId: number, parameters: Record<string, unknown> = {}) {
  return call('POST', '/flows', auth.orgAdmin, {
    name: uniq('Uses'),
    description: '',
    buildingId,
    floorId,
    flowGroupId: null,
    enabled: true,
    definition: { version: 1, steps: [{ kind: 'command', id: 'c', commandId, parameters }] },
  });
}

const commandCount = async () =>
  Number(
    (
      await t.db.kysely
        .selectFrom('commands')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const listIds = async (authorization: string, filter?: unknown) => {
  const q = filter === undefined ? '' : `?filter=${encodeURIComponent(JSON.stringify(filter))}`;
  const res = await call('GET', `/commands${q}`, authorization);
  expect(res.statusCode, res.body).toBe(200);
  return { ids: res.json<Command[]>().map((c) => c.id), total: Number(res.headers['x-total-count']) };
};

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
  auth.general = (await t.as('operator@demo.example')).authorization;
  const b = await t.db.kysely
    .selectFrom('buildings')
    .select(['id', 'organization_id'])
    .where('name', '=', 'Demo Tower')
    .executeTakeFirstOrThrow();
  buildingId = b.id;
  demoOrgId = b.organization_id;
  floorId = (
    await t.db.kysely.selectFrom('floors').select('id').where('building_id', '=', b.id).executeTakeFirstOrThrow()
  ).id;
  const imported = await call('POST', '/init-data', auth.sysAdmin, otherData);
  expect(imported.statusCode, imported.body).toBe(201);
  const login = await t.login('admin@other-c.example', 'Other-Admin-2026');
  expect(login.statusCode).toBe(200);
  auth.otherAdmin = `Bearer ${login.json<{ token: string }>().token}`;
});
afterAll(async () => {
  await t?.close();
});

describe('commands', () => {
  it('creates, reads, updates (versioned) and deletes a command, auditing each change', async () => {
    const body = input();
    const c = await createCommand(body);
    expect(c).toMatchObject({
      organizationId: demoOrgId,
      name: body.name,
      category: 100,
      scope: 0,
      status: 1,
      definition: body.definition,
    });
    expect((await call('GET', `/commands/${c.id}`, auth.general)).json()).toEqual(JSON.parse(JSON.stringify(c)));

    const up = await call('PUT', `/commands/${c.id}`, auth.orgAdmin, {
      ...input({ name: 'Renamed', category: 900 }),
      updatedAt: c.updatedAt,
    });
    expect(up.statusCode, up.body).toBe(200);
    const updated = commandSchema.parse(up.json());
    expect(updated).toMatchObject({ name: 'Renamed', category: 900 });

    const stale = await call('PUT', `/commands/${c.id}`, auth.orgAdmin, {
      ...input({ name: 'Lost' }),
      updatedAt: c.updatedAt,
    });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).code).toBe('STALE_UPDATE');

    expect((await call('DELETE', `/commands/${c.id}`, auth.orgAdmin)).statusCode).toBe(204);
    expect((await call('GET', `/commands/${c.id}`, auth.orgAdmin)).statusCode).toBe(404);
    for (const action of ['command.create', 'command.update', 'command.delete']) {
      const rows = await t.db.kysely
        .selectFrom('audit_logs')
        .select('id')
        .where('action', '=', action)
        .where('target_id', '=', String(c.id))
        .execute();
      expect(rows, action).toHaveLength(1);
    }
    // The update names the command (looked up from its row: the entry's detail lists only the fields).
    const named = await t.db.kysely
      .selectFrom('audit_logs')
      .select('target_name')
      .where('action', '=', 'command.update')
      .where('target_id', '=', String(c.id))
      .executeTakeFirstOrThrow();
    expect(named.target_name).toBe('Renamed');
  });

  it('keeps system commands and the alpha and development scopes to system administrators', async () => {
    const before = await commandCount();
    expect(await refused('POST', '/commands', input({ scope: 2 }))).toEqual(['scope:flowValidation.scopeSystemOnly']);
    expect(await refused('POST', '/commands', input({ organizationId: null }))).toEqual([
      'organizationId:validation.notFound',
    ]);
    const forbidden = await call('POST', '/commands', auth.general, input());
    expect(forbidden.statusCode).toBe(403);
    expect((await call('POST', '/commands', auth.manager, input())).statusCode).toBe(403);
    expect(await commandCount()).toBe(before);

    const system = await createCommand({ organizationId: null, scope: 0 }, auth.sysAdmin);
    expect(system.organizationId).toBeNull();
    const alpha = await createCommand({ organizationId: null, scope: 2 }, auth.sysAdmin);
    // An organization administrator reads the published system command but cannot change it.
    expect((await call('GET', `/commands/${system.id}`, auth.orgAdmin)).statusCode).toBe(200);
    const change = await call('PUT', `/commands/${system.id}`, auth.orgAdmin, {
      ...input({ organizationId: null }),
      updatedAt: system.updatedAt,
    });
    expect(change.statusCode).toBe(403);
    expect((await call('DELETE', `/commands/${system.id}`, auth.orgAdmin)).statusCode).toBe(403);
    // The alpha command is not visible outside the system administrators.
    expect((await call('GET', `/commands/${alpha.id}`, auth.orgAdmin)).statusCode).toBe(404);
    expect((await call('GET', `/commands/${alpha.id}`, auth.otherAdmin)).statusCode).toBe(404);
    expect((await call('GET', `/commands/${system.id}`, auth.otherAdmin)).statusCode).toBe(200);
  });

  it('shows general operators the published commands of their organization only', async () => {
    const published = await createCommand({ scope: 0 });
    const internal = await createCommand({ scope: 1 });
    const general = await listIds(auth.general, { where: { organizationId: demoOrgId } });
    expect(general.ids).toContain(published.id);
    expect(general.ids).not.toContain(internal.id);
    expect((await call('GET', `/commands/${internal.id}`, auth.general)).statusCode).toBe(404);
    expect((await listIds(auth.orgAdmin)).ids).toEqual(expect.arrayContaining([published.id, internal.id]));
    // Another organization sees neither.
    expect((await call('GET', `/commands/${published.id}`, auth.otherAdmin)).statusCode).toBe(404);
    expect((await listIds(auth.otherAdmin)).ids).not.toContain(published.id);
  });

  it('filters the list by category, scope and a name search, paged with the total', async () => {
    const tag = `Zq${Date.now() % 100000}`;
    const a = await createCommand({ name: `${tag} inspect A`, category: 200, scope: 0 });
    const b = await createCommand({ name: `${tag} inspect B`, category: 200, scope: 1 });
    await createCommand({ name: `${tag} warehouse`, category: 500, scope: 0 });
    const byCategory = await listIds(auth.orgAdmin, { where: { name: { like: `${tag}%` }, category: 200 } });
    expect(byCategory).toEqual({ ids: [a.id, b.id], total: 2 });
    const byScope = await listIds(auth.orgAdmin, { where: { name: { like: `${tag}%` }, category: 200, scope: 1 } });
    expect(byScope.ids).toEqual([b.id]);
    const page = await listIds(auth.orgAdmin, { where: { name: { like: `%${tag.toLowerCase()}%` } }, limit: 2 });
    expect(page.ids).toHaveLength(2);
    expect(page.total).toBe(3);
    const bad = await call('GET', `/commands?filter=${encodeURIComponent('{"where":{"secret":1}}')}`, auth.orgAdmin);
    expect(bad.statusCode).toBe(400);
  });

  it('lists the flows using a command and refuses to delete it while one does', async () => {
    const c = await createCommand();
    const flowRes = await createFlowUsing(c.id, { volume: 80 });
    expect(flowRes.statusCode, flowRes.body).toBe(201);
    const flow = flowSchema.parse(flowRes.json());
    const usage = await call('GET', `/commands/${c.id}/usage`, auth.orgAdmin);
    expect(usage.statusCode, usage.body).toBe(200);
    expect(usage.json<CommandUsage[]>()).toEqual([
      { id: flow.id, name: flow.name, buildingId, buildingName: 'Demo Tower', floorId },
    ]);
    expect((await call('GET', `/commands/${c.id}/usage`, auth.general)).statusCode).toBe(403);

    const del = await call('DELETE', `/commands/${c.id}`, auth.orgAdmin);
    expect(del.statusCode).toBe(409);
    const e = errorOf(del);
    expect(e.code).toBe('IN_USE');
    expect(e.details).toEqual([{ path: `flows.${flow.id}`, message: flow.name, code: 'flowValidation.inUse' }]);
    expect((await call('GET', `/commands/${c.id}`, auth.orgAdmin)).statusCode).toBe(200);

    // Once the flow no longer uses it, the command can go.
    const up = await call('PUT', `/flows/${flow.id}`, auth.orgAdmin, {
      name: flow.name,
      description: '',
      buildingId,
      floorId,
      flowGroupId: null,
      definition: { version: 1, steps: [] },
      updatedAt: flow.updatedAt,
    });
    expect(up.statusCode, up.body).toBe(200);
    expect((await call('GET', `/commands/${c.id}/usage`, auth.orgAdmin)).json()).toEqual([]);
    expect((await call('DELETE', `/commands/${c.id}`, auth.orgAdmin)).statusCode).toBe(204);
  });

  it('lets a flow use only commands of its organization (or published system ones) with their parameters', async () => {
    const other = await call('POST', '/commands', auth.otherAdmin, input());
    expect(other.statusCode, other.body).toBe(201);
    const otherId = other.json<Command>().id;
    const flowsBefore = (await call('GET', '/flows', auth.orgAdmin)).headers['x-total-count'];
    const res = await createFlowUsing(otherId);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).details).toEqual([{ path: 'definition.steps.0.commandId', message: 'validation.notFound' }]);
    const own = await createCommand();
    const wrong = await createFlowUsing(own.id, { volume: 'loud', speed: 2 });
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong).details?.map((d) => `${d.path}:${d.message}`)).toEqual([
      'definition.steps.0.parameters.volume:flowValidation.parameterType',
      'definition.steps.0.parameters.speed:flowValidation.unknownParameter',
    ]);
    const disabled = await createCommand({ status: 0 });
    expect((await createFlowUsing(disabled.id)).statusCode).toBe(400);
    const system = await createCommand({ organizationId: null, scope: 0 }, auth.sysAdmin);
    const ok = await createFlowUsing(system.id);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json<Flow>().definition.steps[0]).toMatchObject({ kind: 'command', commandId: system.id });
    expect(Number((await call('GET', '/flows', auth.orgAdmin)).headers['x-total-count'])).toBe(Number(flowsBefore) + 1);
  });

  it("checks a command's own steps where a flow uses it: inside a task when it records task events, the building's ids", async () => {
    const event = await createCommand({
      parameters: [],
      definition: { version: 1, steps: [{ kind: 'taskEvent', id: 'e', level: 9, message: 'Alarm' }] },
    });
    const outside = await createFlowUsing(event.id);
    expect(outside.statusCode).toBe(400);
    expect(errorOf(outside).details).toEqual([
      { path: 'definition.steps.0.commandId', message: 'flowValidation.commandNeedsTask' },
    ]);
    const inside = await call('POST', '/flows', auth.orgAdmin, {
      name: uniq('Task'),
      description: '',
      buildingId,
      floorId,
      flowGroupId: null,
      enabled: true,
      definition: {
        version: 1,
        steps: [
          { kind: 'taskStart', id: 's', name: 'Round' },
          { kind: 'command', id: 'c', commandId: event.id },
          { kind: 'taskComplete', id: 'e' },
        ],
      },
    });
    expect(inside.statusCode, inside.body).toBe(201);
    const elsewhere = await createCommand({
      parameters: [],
      definition: { version: 1, steps: [{ kind: 'moveToWaypoint', id: 'm', waypointId: 999 }] },
    });
    const res = await createFlowUsing(elsewhere.id);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).details).toEqual([
      { path: 'definition.steps.0.commandId', message: 'flowValidation.commandNotHere' },
    ]);
  });

  it('answers bad input with 400 on the field and stores nothing', async () => {
    const before = await commandCount();
    expect(await refused('POST', '/commands', input({ name: 'x'.repeat(65) }))).toEqual(['name:validation.max64']);
    expect(await refused('POST', '/commands', { ...input(), category: 150 })).toEqual(['category:validation.invalid']);
    expect(await refused('POST', '/commands', { ...input(), scope: 7 })).toEqual(['scope:validation.invalid']);
    expect(await refused('POST', '/commands', input({ definition: { version: 1, steps: [] } }))).toEqual([
      'definition.steps:flowValidation.emptyCommand',
    ]);
    expect(
      await refused(
        'POST',
        '/commands',
        input({ definition: { version: 1, steps: [{ kind: 'command', id: 'a', commandId: 1 }] } }),
      ),
    ).toEqual(['definition.steps.0:flowValidation.commandInCommand']);
    expect(
      await refused('POST', '/commands', input({ parameters: [{ name: '1bad', type: 'number', preset: 'x' }] })),
    ).toEqual(['parameters.0.name:flowValidation.parameterName', 'parameters.0.preset:flowValidation.parameterType']);
    const tooMany = Array.from({ length: 21 }, (_, i) => ({ kind: 'returnToCharger', id: `s${i}` }));
    expect(await refused('POST', '/commands', { ...input(), definition: { version: 1, steps: tooMany } })).toEqual([
      'definition.steps:flowValidation.tooManySteps',
    ]);
    expect(await commandCount()).toBe(before);
  });
});
