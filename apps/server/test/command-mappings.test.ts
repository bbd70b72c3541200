import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commandMappingSchema,
  robotCommandMappingSchema,
  type CommandMapping,
  type CommandMappingInput,
  type InitData,
} from '@portal/contract';
import { createTestApp, errorOf, registerDemoRobot, type TestApp } from './helpers.ts';

/**
 * Command mappings: CRUD with audit entries and revisions, the field rules (name, building, mode,
 * definition rows), "mode must be unused" (also when creates race: the unique index), roles,
 * tenancy (another organization's mapping is 404), list filters, stale edits (409) and a robot's
 * mapped commands for a mode (the common set overlaid by the mode's own mapping).
 */
let t: TestApp;
const auth = { general: '', manager: '', orgAdmin: '', sysAdmin: '', otherAdmin: '' };
let demoBuildingId: number;
let demoOrgId: number;
let annexId: number;
let otherBuildingId: number;
let robotId: number;

const otherData: InitData = {
  organization: { name: 'Other Mapping Org', type: 0, labOption: false },
  buildings: [{ name: 'Other Mapping Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
  operators: [
    {
      loginId: 'admin@other-cm.example',
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

const definition = (): CommandMappingInput['definition'] => ({
  version: 1,
  entries: [
    {
      label: 'Greet',
      screen: true,
      key: 'KeyG',
      gamepadButton: 0,
      command: { kind: 'action', action: { type: 'speak', text: 'Hello', language: 'en' } },
    },
    {
      label: 'Photo',
      screen: true,
      key: 'KeyP',
      gamepadButton: null,
      command: { kind: 'action', action: { type: 'takePhoto', camera: 'v1' } },
    },
    { label: 'Pause', screen: false, key: null, gamepadButton: 3, command: { kind: 'order', command: 'pause' } },
  ],
});

const input = (over: Partial<CommandMappingInput> = {}): CommandMappingInput => ({
  name: uniq('Reception controls'),
  buildingId: annexId,
  mode: 10,
  memo: 'Front desk',
  status: 1,
  definition: definition(),
  ...over,
});

async function create(over: Partial<CommandMappingInput> = {}, authorization = auth.orgAdmin): Promise<CommandMapping> {
  const res = await call('POST', '/command-mappings', authorization, input(over));
  expect(res.statusCode, res.body).toBe(201);
  return commandMappingSchema.parse(res.json());
}

const remove = async (id: number) => {
  const res = await call('DELETE', `/command-mappings/${id}`, auth.sysAdmin);
  expect(res.statusCode, res.body).toBe(204);
};

const count = async () =>
  Number(
    (
      await t.db.kysely
        .selectFrom('command_mappings')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function newBuilding(name: string): Promise<number> {
  const created = await call('POST', '/buildings', auth.orgAdmin, {
    name,
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
  return created.json<{ id: number }>().id;
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
  annexId = await newBuilding('Mapping Annex');
  robotId = (await registerDemoRobot(t, { serialNo: 'CM-0001', name: 'Mapping robot', model: 'pro' })).created.robot.id;
  const imported = await call('POST', '/init-data', auth.sysAdmin, otherData);
  expect(imported.statusCode, imported.body).toBe(201);
  const otherOrgId = imported.json<{ organizationId: number }>().organizationId;
  otherBuildingId = (
    await t.db.kysely
      .selectFrom('buildings')
      .select('id')
      .where('organization_id', '=', otherOrgId)
      .executeTakeFirstOrThrow()
  ).id;
  auth.otherAdmin = `Bearer ${
    (await t.login('admin@other-cm.example', 'Other-Admin-2026')).json<{ token: string }>().token
  }`;
});

afterAll(async () => {
  await t.close();
});

describe('command mappings', () => {
  it('creates, reads, updates (revision +1) and deletes a mapping, with audit entries', async () => {
    const m = await create({ mode: 11 });
    expect(m).toMatchObject({ buildingId: annexId, buildingName: 'Mapping Annex', mode: 11, revision: 1, status: 1 });
    expect(m.definition.entries).toHaveLength(3);
    const got = await call('GET', `/command-mappings/${m.id}`, auth.manager);
    expect(got.json<CommandMapping>().name).toBe(m.name);

    const upd = await call('PUT', `/command-mappings/${m.id}`, auth.orgAdmin, {
      ...input({ name: 'Renamed', mode: 11, memo: '' }),
      updatedAt: m.updatedAt,
    });
    expect(upd.statusCode, upd.body).toBe(200);
    const updated = commandMappingSchema.parse(upd.json());
    expect(updated).toMatchObject({ name: 'Renamed', revision: 2, memo: '' });

    // A stale edit: 409, nothing changed.
    const stale = await call('PUT', `/command-mappings/${m.id}`, auth.orgAdmin, {
      ...input({ name: 'Stale', mode: 11 }),
      updatedAt: m.updatedAt,
    });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).code).toBe('STALE_UPDATE');
    expect((await call('GET', `/command-mappings/${m.id}`, auth.orgAdmin)).json<CommandMapping>().name).toBe('Renamed');

    const del = await call('DELETE', `/command-mappings/${m.id}`, auth.orgAdmin);
    expect(del.statusCode).toBe(204);
    expect((await call('GET', `/command-mappings/${m.id}`, auth.orgAdmin)).statusCode).toBe(404);
    const actions = await t.db.kysely
      .selectFrom('audit_logs')
      .select('action')
      .where('target_type', '=', 'command-mapping')
      .where('target_id', '=', String(m.id))
      .orderBy('id')
      .execute();
    expect(actions.map((a) => a.action)).toEqual([
      'commandMapping.create',
      'commandMapping.update',
      'commandMapping.delete',
    ]);
  });

  it('refuses bad input with 400 and field details, changing nothing', async () => {
    const before = await count();
    const cases: Array<[Partial<CommandMappingInput> | Record<string, unknown>, string, string]> = [
      [{ name: '' }, 'name', 'validation.required'],
      [{ name: 'x'.repeat(65) }, 'name', 'validation.max64'],
      [{ buildingId: undefined }, 'buildingId', ''],
      [{ mode: 14 }, 'mode', 'validation.invalid'],
      [{ definition: undefined }, 'definition', ''],
      [{ definition: { version: 1, entries: [] } }, 'definition.entries', 'commandMappingValidation.noEntries'],
      [
        { definition: { version: 2, entries: definition().entries } },
        'definition.version',
        'commandMappingValidation.version',
      ],
    ];
    for (const [over, path, message] of cases) {
      const res = await call('POST', '/command-mappings', auth.orgAdmin, { ...input(), ...over });
      expect(res.statusCode, `${path}: ${res.body}`).toBe(400);
      const err = errorOf(res);
      expect(err.code).toBe('VALIDATION_FAILED');
      const d = err.details?.find((x) => x.path === path);
      expect(d, `${path}: ${res.body}`).toBeDefined();
      if (message) expect(d?.message).toBe(message);
    }
    const rows = definition().entries;
    const rowCases: Array<[unknown, string, string]> = [
      [{ ...rows[0], key: 'KeyW' }, 'definition.entries.0.key', 'commandMappingValidation.key'],
      [
        { ...rows[0], gamepadButton: 1 },
        'definition.entries.0.gamepadButton',
        'commandMappingValidation.gamepadButton',
      ],
      [
        { ...rows[0], screen: false, key: null, gamepadButton: null },
        'definition.entries.0.screen',
        'commandMappingValidation.noControl',
      ],
      [
        { ...rows[0], command: { kind: 'action', action: { type: 'answerCall' } } },
        'definition.entries.0.command.action',
        'commandMappingValidation.command',
      ],
      [{ ...rows[0], command: { kind: 'order', command: 'jump' } }, 'definition.entries.0.command.command', ''],
    ];
    for (const [row, path, message] of rowCases) {
      const res = await call(
        'POST',
        '/command-mappings',
        auth.orgAdmin,
        input({ definition: { version: 1, entries: [row as never] } }),
      );
      expect(res.statusCode, `${path}: ${res.body}`).toBe(400);
      const d = errorOf(res).details?.find((x) => x.path === path);
      expect(d, `${path}: ${res.body}`).toBeDefined();
      if (message) expect(d?.message).toBe(message);
    }
    const dup = await call(
      'POST',
      '/command-mappings',
      auth.orgAdmin,
      input({ definition: { version: 1, entries: [rows[0]!, { ...rows[1]!, key: 'KeyG' }] } }),
    );
    expect(dup.statusCode).toBe(400);
    expect(errorOf(dup).details?.find((x) => x.path === 'definition.entries.1.key')?.message).toBe(
      'commandMappingValidation.duplicateKey',
    );
    // A building the caller cannot use.
    const foreign = await call('POST', '/command-mappings', auth.orgAdmin, input({ buildingId: otherBuildingId }));
    expect(foreign.statusCode).toBe(400);
    expect(errorOf(foreign).details?.[0]).toMatchObject({ path: 'buildingId', message: 'validation.notFound' });
    expect(await count()).toBe(before);
  });

  it('a mode is used by one mapping per building (400 on mode), other buildings and modes are free', async () => {
    const first = await create({ mode: 12 });
    const again = await call('POST', '/command-mappings', auth.orgAdmin, input({ mode: 12 }));
    expect(again.statusCode).toBe(400);
    expect(errorOf(again).details).toEqual([
      expect.objectContaining({ path: 'mode', message: 'commandMappingValidation.modeInUse' }),
    ]);
    const common = await create({ mode: 112 });
    const elsewhere = await create({ mode: 12, buildingId: demoBuildingId });
    // Moving another mapping onto a used mode is refused too; keeping its own mode is fine.
    const moved = await call('PUT', `/command-mappings/${common.id}`, auth.orgAdmin, {
      ...input({ mode: 12, name: common.name }),
      updatedAt: common.updatedAt,
    });
    expect(moved.statusCode).toBe(400);
    expect(errorOf(moved).details?.[0]?.path).toBe('mode');
    const kept = await call('PUT', `/command-mappings/${first.id}`, auth.orgAdmin, {
      ...input({ mode: 12, name: first.name }),
      updatedAt: first.updatedAt,
    });
    expect(kept.statusCode, kept.body).toBe(200);
    for (const m of [first, common, elsewhere]) await remove(m.id);
  });

  it('of concurrent creates of one mode exactly one wins; the others are 400 on mode', async () => {
    const building = await newBuilding('Mapping Race');
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        call('POST', '/command-mappings', auth.orgAdmin, input({ buildingId: building, mode: 13 })),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([201, 400, 400, 400, 400, 400]);
    for (const a of answers.filter((x) => x.statusCode === 400))
      expect(errorOf(a).details?.[0]).toMatchObject({ path: 'mode', message: 'commandMappingValidation.modeInUse' });
    const rows = await t.db.kysely
      .selectFrom('command_mappings')
      .select('id')
      .where('building_id', '=', building)
      .execute();
    expect(rows).toHaveLength(1);
    // The database itself holds the rule (whatever slips past the service's check).
    const now = new Date().toISOString();
    await expect(
      t.db.kysely
        .insertInto('command_mappings')
        .values({
          organization_id: demoOrgId,
          building_id: building,
          name: 'Raw',
          mode: 13,
          memo: '',
          revision: 1,
          status: 1,
          definition: JSON.stringify(definition()),
          created_at: now,
          updated_at: now,
        })
        .execute(),
    ).rejects.toThrow();
    await remove(rows[0]!.id);
  });

  it('roles: area managers and general operators read (403 on writes); system administrators write', async () => {
    const m = await create({ mode: 10 });
    for (const who of [auth.manager, auth.general]) {
      expect((await call('POST', '/command-mappings', who, input({ mode: 11 }))).statusCode).toBe(403);
      expect(
        (await call('PUT', `/command-mappings/${m.id}`, who, { ...input({ mode: 10 }), updatedAt: m.updatedAt }))
          .statusCode,
      ).toBe(403);
      expect((await call('DELETE', `/command-mappings/${m.id}`, who)).statusCode).toBe(403);
    }
    expect((await call('GET', `/command-mappings/${m.id}`, auth.manager)).statusCode).toBe(200);
    const sys = await call('PUT', `/command-mappings/${m.id}`, auth.sysAdmin, {
      ...input({ mode: 10, name: 'By the system administrator' }),
      updatedAt: m.updatedAt,
    });
    expect(sys.statusCode, sys.body).toBe(200);
    await remove(m.id);
  });

  it('tenancy: another organization does not see, change or delete a mapping (404), nor list it', async () => {
    const m = await create({ mode: 10, buildingId: demoBuildingId });
    expect((await call('GET', `/command-mappings/${m.id}`, auth.otherAdmin)).statusCode).toBe(404);
    expect(
      (
        await call('PUT', `/command-mappings/${m.id}`, auth.otherAdmin, {
          ...input({ buildingId: otherBuildingId }),
          updatedAt: m.updatedAt,
        })
      ).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/command-mappings/${m.id}`, auth.otherAdmin)).statusCode).toBe(404);
    const listed = await call('GET', '/command-mappings', auth.otherAdmin);
    expect(listed.json<CommandMapping[]>().map((x) => x.id)).not.toContain(m.id);
    // General operators see their own building's mappings only.
    const annex = await create({ mode: 13 });
    const general = await call('GET', `/command-mappings/${annex.id}`, auth.general);
    expect(general.statusCode).toBe(404);
    await remove(m.id);
    await remove(annex.id);
  });

  it('lists with filters on building, mode and status, sorted and paged', async () => {
    const building = await newBuilding('Mapping List');
    const a = await create({ buildingId: building, mode: 10, name: 'Alpha' });
    const b = await create({ buildingId: building, mode: 110, name: 'Bravo', status: 0 });
    const c = await create({ buildingId: building, mode: 11, name: 'Charlie' });
    const q = (filter: unknown) =>
      call('GET', `/command-mappings?filter=${encodeURIComponent(JSON.stringify(filter))}`, auth.orgAdmin);
    const all = await q({ where: { buildingId: building }, order: 'name DESC' });
    expect(all.json<CommandMapping[]>().map((x) => x.name)).toEqual(['Charlie', 'Bravo', 'Alpha']);
    expect(all.headers['x-total-count']).toBe('3');
    expect((await q({ where: { buildingId: building, mode: 110 } })).json<CommandMapping[]>().map((x) => x.id)).toEqual(
      [b.id],
    );
    expect((await q({ where: { buildingId: building, status: 1 } })).json<CommandMapping[]>()).toHaveLength(2);
    const page = await q({ where: { buildingId: building }, order: 'name ASC', limit: 1, skip: 1 });
    expect(page.json<CommandMapping[]>().map((x) => x.id)).toEqual([b.id]);
    expect(page.headers['x-total-count']).toBe('3');
    expect((await q({ where: { nope: 1 } })).statusCode).toBe(400);
    for (const m of [a, b, c]) await remove(m.id);
  });

  it("gives a robot's mapped commands for a mode: the common set overlaid by the mode's own, enabled only", async () => {
    const ask = (mode: unknown, who = auth.general) =>
      call('GET', `/robots/${robotId}/command-mapping?mode=${String(mode)}`, who);
    const empty = await ask(10);
    expect(empty.statusCode, empty.body).toBe(200);
    expect(robotCommandMappingSchema.parse(empty.json())).toMatchObject({
      robotId,
      buildingId: demoBuildingId,
      mappings: [],
      entries: [],
    });

    const common = await create({
      buildingId: demoBuildingId,
      mode: 110,
      definition: {
        version: 1,
        entries: [
          {
            label: 'Lights on',
            screen: true,
            key: 'KeyL',
            gamepadButton: 2,
            command: { kind: 'action', action: { type: 'setRingLight', on: true } },
          },
          {
            label: 'Greet',
            screen: true,
            key: 'KeyH',
            gamepadButton: null,
            command: { kind: 'action', action: { type: 'speak', text: 'Hi', language: 'ja' } },
          },
        ],
      },
    });
    const own = await create({ buildingId: demoBuildingId, mode: 10 });
    const off = await create({ buildingId: demoBuildingId, mode: 11, status: 0 });
    const got = robotCommandMappingSchema.parse((await ask(10)).json());
    expect(got.mappings.map((m) => m.id)).toEqual([common.id, own.id]);
    // "Greet" is the mode's own on screen; the common row keeps its key H.
    expect(got.entries.map((e) => [e.label, e.screen, e.key])).toEqual([
      ['Lights on', true, 'KeyL'],
      ['Greet', false, 'KeyH'],
      ['Greet', true, 'KeyG'],
      ['Photo', true, 'KeyP'],
      ['Pause', false, null],
    ]);
    // A disabled mapping is offered to nobody.
    expect(robotCommandMappingSchema.parse((await ask(11)).json()).entries).toEqual([]);
    expect((await ask(110)).statusCode).toBe(400);
    expect((await ask('x')).statusCode).toBe(400);
    expect((await ask(10, auth.otherAdmin)).statusCode).toBe(404);
    expect((await call('GET', '/robots/999999/command-mapping?mode=10', auth.sysAdmin)).statusCode).toBe(404);
    for (const m of [common, own, off]) await remove(m.id);
  });
});
