import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  homeArms,
  poseDefSchema,
  poseNetworkSchema,
  type InitData,
  type PoseDef,
  type PoseDefInput,
  type PoseNetwork,
  type PoseNetworkInput,
} from '@portal/contract';
import { createTestApp, type TestApp, errorOf } from './helpers.ts';

/**
 * Pose definitions and pose networks: CRUD, the shape and graph rules, names, concurrency, roles,
 * tenancy (a second organization is imported), building scope and "in use".
 */
let t: TestApp;
const auth = { general: '', manager: '', orgAdmin: '', sysAdmin: '', otherAdmin: '' };
let demoOrgId: number;
let demoBuildingId: number;
let annexId: number;
let otherOrgId: number;

const otherData: InitData = {
  organization: { name: 'Other Poses Org', type: 0, labOption: false },
  buildings: [{ name: 'Other Pose Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
  operators: [
    {
      loginId: 'admin@other-p.example',
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

const poseInput = (over: Partial<PoseDefInput> = {}): PoseDefInput => ({
  name: uniq('Arms up'),
  buildingId: null,
  armModel: 100,
  armType: 1,
  arms: homeArms(100, 1),
  periscopeMm: null,
  ...over,
});

async function createPose(over: Partial<PoseDefInput> = {}, authorization = auth.orgAdmin): Promise<PoseDef> {
  const res = await call('POST', '/pose-defs', authorization, poseInput(over));
  expect(res.statusCode, res.body).toBe(201);
  return poseDefSchema.parse(res.json());
}

async function createNetwork(body: Partial<PoseNetworkInput>, authorization = auth.orgAdmin): Promise<PoseNetwork> {
  const res = await call('POST', '/pose-networks', authorization, {
    name: uniq('Net'),
    buildingId: null,
    armModel: 100,
    armType: 1,
    nodes: [],
    edges: [],
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return poseNetworkSchema.parse(res.json());
}

const auditOf = (action: string, targetId: number) =>
  t.db.kysely
    .selectFrom('audit_logs')
    .selectAll()
    .where('action', '=', action)
    .where('target_id', '=', String(targetId))
    .execute();

const listPoses = async (authorization: string, filter?: unknown) => {
  const q = filter === undefined ? '' : `?filter=${encodeURIComponent(JSON.stringify(filter))}`;
  const res = await call('GET', `/pose-defs${q}`, authorization);
  expect(res.statusCode, res.body).toBe(200);
  return { items: res.json<PoseDef[]>(), total: Number(res.headers['x-total-count']) };
};

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
  const created = await call('POST', '/buildings', auth.orgAdmin, {
    name: 'Pose Annex',
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
  const imported = await call('POST', '/init-data', auth.sysAdmin, otherData);
  expect(imported.statusCode, imported.body).toBe(201);
  otherOrgId = imported.json<{ organizationId: number }>().organizationId;
  const login = await t.login('admin@other-p.example', 'Other-Admin-2026');
  expect(login.statusCode).toBe(200);
  auth.otherAdmin = `Bearer ${login.json<{ token: string }>().token}`;
});
afterAll(async () => {
  await t?.close();
});

describe('pose definitions', () => {
  it('creates, reads, updates and deletes a pose, auditing each change', async () => {
    const body = poseInput({ armModel: 200, armType: 22, arms: homeArms(200, 22), periscopeMm: 250 });
    const res = await call('POST', '/pose-defs', auth.orgAdmin, body);
    expect(res.statusCode, res.body).toBe(201);
    const pose = poseDefSchema.parse(res.json());
    expect(pose).toMatchObject({
      name: body.name,
      organizationId: demoOrgId,
      buildingId: null,
      buildingName: null,
      armModel: 200,
      armType: 22,
      arms: [
        [0, -80, 20, 0, 0],
        [0, -80, 20, 0, 0],
      ],
      periscopeMm: 250,
    });
    expect(await auditOf('poseDef.create', pose.id)).toHaveLength(1);

    const got = await call('GET', `/pose-defs/${pose.id}`, auth.general);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(pose);

    const arms = [
      [45, 90, 100, -30.5, 170],
      [-45, 0, 0, 0, -180],
    ];
    const put = await call('PUT', `/pose-defs/${pose.id}`, auth.orgAdmin, {
      ...body,
      buildingId: demoBuildingId,
      arms,
      updatedAt: pose.updatedAt,
    });
    expect(put.statusCode, put.body).toBe(200);
    const updated = poseDefSchema.parse(put.json());
    expect(updated).toMatchObject({ arms, buildingId: demoBuildingId, buildingName: 'Demo Tower' });
    expect(updated.updatedAt > pose.updatedAt).toBe(true);
    const [entry] = await auditOf('poseDef.update', pose.id);
    expect(JSON.parse(entry!.detail ?? '{}')).toEqual({ fields: ['buildingId', 'arms'] });

    // The edit was based on the old version: refused, nothing overwritten.
    const stale = await call('PUT', `/pose-defs/${pose.id}`, auth.orgAdmin, {
      ...body,
      name: 'Someone else',
      updatedAt: pose.updatedAt,
    });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).code).toBe('STALE_UPDATE');

    const del = await call('DELETE', `/pose-defs/${pose.id}`, auth.orgAdmin);
    expect(del.statusCode).toBe(204);
    expect(await auditOf('poseDef.delete', pose.id)).toHaveLength(1);
    expect((await call('GET', `/pose-defs/${pose.id}`, auth.orgAdmin)).statusCode).toBe(404);
  });

  it.each([
    ['too many joints for the model', { arms: [[0, 0, 0, 0, 0]] }, 'arms.0', 'poseValidation.jointCount'],
    ['too few joints', { arms: [[0, 0, 0]] }, 'arms.0', 'poseValidation.jointCount'],
    ['a joint past its limit', { arms: [[0, -91, 20, 0]] }, 'arms.0.1', 'validation.range'],
    ['an elbow below its limit', { arms: [[0, 0, -1, 0]] }, 'arms.0.2', 'validation.range'],
    ['an angle past ±180', { arms: [[0, 0, 0, 181]] }, 'arms.0.3', 'validation.range'],
    ['two arms on a single-arm type', { arms: homeArms(100, 2) }, 'arms', 'poseValidation.armCount'],
    ['one arm on a dual-arm type', { armType: 2 as const }, 'arms', 'poseValidation.armCount'],
    ['a periscope on a type without one', { periscopeMm: 10 }, 'periscopeMm', 'poseValidation.periscopeNotAllowed'],
    ['no periscope on type 21', { armType: 21 as const }, 'periscopeMm', 'poseValidation.periscopeRequired'],
    [
      'a periscope above the model maximum',
      { armType: 21 as const, periscopeMm: 301 },
      'periscopeMm',
      'validation.range',
    ],
    ['a negative periscope', { armType: 21 as const, periscopeMm: -1 }, 'periscopeMm', 'validation.range'],
    ['a name too long', { name: 'x'.repeat(41) }, 'name', 'validation.max40'],
    ['an empty name', { name: '  ' }, 'name', 'validation.required'],
  ])('refuses %s (400 with details)', async (_what, over, path, message) => {
    const res = await call('POST', '/pose-defs', auth.orgAdmin, poseInput(over as Partial<PoseDefInput>));
    expect(res.statusCode, res.body).toBe(400);
    const error = errorOf(res);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path, message })]));
  });

  it('reads path ids strictly: no hexadecimal, exponent or padded forms of another id', async () => {
    for (const bad of ['0x10', '1e3', '01', '%201']) {
      expect((await call('GET', `/pose-defs/${bad}`, auth.orgAdmin)).statusCode).toBe(400);
      expect((await call('GET', `/pose-networks/${bad}`, auth.orgAdmin)).statusCode).toBe(400);
    }
  });

  it('accepts the limits themselves and the periscope range of each model', async () => {
    await createPose({ arms: [[-90, 180, 135, 90]] });
    await createPose({ armModel: 300, armType: 21, arms: homeArms(300, 21), periscopeMm: 800 });
    const res = await call(
      'POST',
      '/pose-defs',
      auth.orgAdmin,
      poseInput({ armModel: 200, armType: 21, arms: homeArms(200, 21), periscopeMm: 501 }),
    );
    expect(res.statusCode).toBe(400);
  });

  it('keeps names unique per organization, arm model and type', async () => {
    const first = await createPose({ name: 'Bow' });
    const again = await call('POST', '/pose-defs', auth.orgAdmin, poseInput({ name: 'Bow' }));
    expect(again.statusCode).toBe(409);
    expect(errorOf(again)).toMatchObject({
      code: 'DUPLICATE',
      details: [{ path: 'name', message: 'validation.duplicate' }],
    });
    // Another type, another model, another organization: fine.
    await createPose({ name: 'Bow', armType: 2, arms: homeArms(100, 2) });
    await createPose({ name: 'Bow', armModel: 300, arms: homeArms(300, 1) });
    await createPose({ name: 'Bow' }, auth.otherAdmin);
    // Renaming onto a taken name.
    const other = await createPose({ name: 'Wave' });
    const rename = await call('PUT', `/pose-defs/${other.id}`, auth.orgAdmin, {
      ...poseInput({ name: 'Bow' }),
      updatedAt: other.updatedAt,
    });
    expect(rename.statusCode).toBe(409);
    expect(errorOf(rename).code).toBe('DUPLICATE');
    expect(first.name).toBe('Bow');
  });

  it('lists with the filter: model, type, name like, building, order and paging', async () => {
    const tag = `Lst${Date.now().toString(36)}`;
    await createPose({ name: `${tag} c`, armModel: 300, armType: 1, arms: homeArms(300, 1) });
    await createPose({ name: `${tag} a`, armModel: 300, armType: 1, arms: homeArms(300, 1), buildingId: annexId });
    await createPose({ name: `${tag} b`, armModel: 300, armType: 2, arms: homeArms(300, 2) });
    const like = { name: { like: `${tag}%` } };
    const all = await listPoses(auth.orgAdmin, { where: like });
    expect(all.items.map((p) => p.name)).toEqual([`${tag} a`, `${tag} b`, `${tag} c`]);
    expect(all.total).toBe(3);
    const type1 = await listPoses(auth.orgAdmin, { where: { and: [like, { armModel: 300 }, { armType: 1 }] } });
    expect(type1.items.map((p) => p.name)).toEqual([`${tag} a`, `${tag} c`]);
    const annex = await listPoses(auth.orgAdmin, { where: { and: [like, { buildingId: annexId }] } });
    expect(annex.items.map((p) => p.buildingName)).toEqual(['Pose Annex']);
    const orgWide = await listPoses(auth.orgAdmin, { where: { and: [like, { buildingId: null }] } });
    expect(orgWide.items).toHaveLength(2);
    const page = await listPoses(auth.orgAdmin, { where: like, order: 'name DESC', limit: 1, skip: 1 });
    expect(page.items.map((p) => p.name)).toEqual([`${tag} b`]);
    expect(page.total).toBe(3);
    const bad = await call('GET', `/pose-defs?filter=${encodeURIComponent('{"where":{"arms":1}}')}`, auth.orgAdmin);
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).code).toBe('BAD_FILTER');
  });
});

describe('roles and tenancy', () => {
  it('lets general operators and area managers read but not write', async () => {
    const pose = await createPose();
    for (const who of [auth.general, auth.manager]) {
      expect((await call('GET', `/pose-defs/${pose.id}`, who)).statusCode).toBe(200);
      expect((await call('POST', '/pose-defs', who, poseInput())).statusCode).toBe(403);
      const put = await call('PUT', `/pose-defs/${pose.id}`, who, { ...poseInput(), updatedAt: pose.updatedAt });
      expect(put.statusCode).toBe(403);
      expect((await call('DELETE', `/pose-defs/${pose.id}`, who)).statusCode).toBe(403);
      expect(
        (
          await call('POST', '/pose-networks', who, {
            name: 'x',
            buildingId: null,
            armModel: 100,
            armType: 1,
            nodes: [],
            edges: [],
          })
        ).statusCode,
      ).toBe(403);
    }
    expect((await call('GET', `/pose-defs/${pose.id}`, auth.orgAdmin)).statusCode).toBe(200);
  });

  it('shows general operators organization-wide poses and their own building only', async () => {
    const tag = `Gen${Date.now().toString(36)}`;
    const wide = await createPose({ name: `${tag} wide` });
    const own = await createPose({ name: `${tag} own`, buildingId: demoBuildingId });
    const annex = await createPose({ name: `${tag} annex`, buildingId: annexId });
    const seen = await listPoses(auth.general, { where: { name: { like: `${tag}%` } } });
    expect(seen.items.map((p) => p.id).sort()).toEqual([wide.id, own.id].sort());
    expect((await call('GET', `/pose-defs/${annex.id}`, auth.general)).statusCode).toBe(404);
    const manager = await listPoses(auth.manager, { where: { name: { like: `${tag}%` } } });
    expect(manager.items).toHaveLength(3);
  });

  it("answers 404 for another tenant's poses and networks and never lists them", async () => {
    const pose = await createPose();
    const net = await createNetwork({ nodes: [pose.id] });
    for (const [url, body] of [
      [`/pose-defs/${pose.id}`, { ...poseInput(), updatedAt: pose.updatedAt }],
      [
        `/pose-networks/${net.id}`,
        { name: 'x', buildingId: null, armModel: 100, armType: 1, nodes: [], edges: [], updatedAt: net.updatedAt },
      ],
    ] as const) {
      expect((await call('GET', url, auth.otherAdmin)).statusCode).toBe(404);
      expect((await call('PUT', url, auth.otherAdmin, body)).statusCode).toBe(404);
      expect((await call('DELETE', url, auth.otherAdmin)).statusCode).toBe(404);
    }
    const theirs = await listPoses(auth.otherAdmin, { limit: 1000 });
    expect(theirs.items.every((p) => p.organizationId === otherOrgId)).toBe(true);
    // Nor can they use our building or our pose.
    const building = await call('POST', '/pose-defs', auth.otherAdmin, poseInput({ buildingId: demoBuildingId }));
    expect(errorOf(building).details).toEqual([{ path: 'buildingId', message: 'validation.notFound' }]);
    const node = await call('POST', '/pose-networks', auth.otherAdmin, {
      name: 'Stolen',
      buildingId: null,
      armModel: 100,
      armType: 1,
      nodes: [pose.id],
      edges: [],
    });
    expect(node.statusCode).toBe(400);
    expect(errorOf(node).details).toEqual([{ path: 'nodes.0', message: 'validation.notFound' }]);
  });

  it('lets system administrators write in any organization', async () => {
    const pose = await createPose({ organizationId: otherOrgId }, auth.sysAdmin);
    expect(pose.organizationId).toBe(otherOrgId);
    expect((await call('GET', `/pose-defs/${pose.id}`, auth.otherAdmin)).statusCode).toBe(200);
    const forged = await call('POST', '/pose-defs', auth.orgAdmin, poseInput({ organizationId: otherOrgId }));
    expect(forged.statusCode).toBe(400);
    expect(errorOf(forged).details).toEqual([{ path: 'organizationId', message: 'validation.notFound' }]);
  });
});

describe('pose networks', () => {
  it('creates, reads, updates and deletes a network, auditing each change', async () => {
    const a = await createPose();
    const b = await createPose();
    const c = await createPose();
    const net = await createNetwork({
      name: 'Greeting',
      nodes: [a.id, b.id, c.id],
      edges: [
        { from: a.id, to: b.id, bidirectional: true },
        { from: b.id, to: c.id, bidirectional: false },
      ],
    });
    expect(net).toMatchObject({
      name: 'Greeting',
      organizationId: demoOrgId,
      nodes: [
        { id: a.id, name: a.name },
        { id: b.id, name: b.name },
        { id: c.id, name: c.name },
      ],
      edges: [
        { from: a.id, to: b.id, bidirectional: true },
        { from: b.id, to: c.id, bidirectional: false },
      ],
    });
    expect(await auditOf('poseNetwork.create', net.id)).toHaveLength(1);
    expect((await call('GET', `/pose-networks/${net.id}`, auth.general)).json()).toEqual(net);

    const put = await call('PUT', `/pose-networks/${net.id}`, auth.orgAdmin, {
      name: 'Greeting',
      buildingId: null,
      armModel: 100,
      armType: 1,
      nodes: [c.id, a.id],
      edges: [{ from: c.id, to: a.id, bidirectional: false }],
      updatedAt: net.updatedAt,
    });
    expect(put.statusCode, put.body).toBe(200);
    const updated = poseNetworkSchema.parse(put.json());
    expect(updated.nodes.map((x) => x.id)).toEqual([c.id, a.id]);
    expect(await auditOf('poseNetwork.update', net.id)).toHaveLength(1);
    const stale = await call('PUT', `/pose-networks/${net.id}`, auth.orgAdmin, {
      name: 'Greeting',
      buildingId: null,
      armModel: 100,
      armType: 1,
      nodes: [],
      edges: [],
      updatedAt: net.updatedAt,
    });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).code).toBe('STALE_UPDATE');

    const list = await call(
      'GET',
      `/pose-networks?filter=${encodeURIComponent(JSON.stringify({ where: { name: 'Greeting', armModel: 100 } }))}`,
      auth.orgAdmin,
    );
    expect(list.json<PoseNetwork[]>().map((x) => x.id)).toEqual([net.id]);
    expect(list.headers['x-total-count']).toBe('1');

    const dup = await call('POST', '/pose-networks', auth.orgAdmin, {
      name: 'Greeting',
      buildingId: null,
      armModel: 100,
      armType: 1,
      nodes: [],
      edges: [],
    });
    expect(dup.statusCode).toBe(409);
    expect(errorOf(dup).code).toBe('DUPLICATE');

    expect((await call('DELETE', `/pose-networks/${net.id}`, auth.orgAdmin)).statusCode).toBe(204);
    expect(await auditOf('poseNetwork.delete', net.id)).toHaveLength(1);
    expect((await call('GET', `/pose-networks/${net.id}`, auth.orgAdmin)).statusCode).toBe(404);
    // Its poses are free again.
    expect((await call('DELETE', `/pose-defs/${b.id}`, auth.orgAdmin)).statusCode).toBe(204);
  });

  it('refuses graphs that break the rules', async () => {
    const a = await createPose();
    const b = await createPose();
    const dual = await createPose({ armType: 2, arms: homeArms(100, 2) });
    const annexPose = await createPose({ buildingId: annexId });
    const base = { name: uniq('Bad'), buildingId: null, armModel: 100, armType: 1 };
    const cases: Array<[unknown, string, string]> = [
      [{ nodes: [a.id, dual.id], edges: [] }, 'nodes.1', 'poseValidation.nodeModelMismatch'],
      [{ nodes: [a.id, 999_999], edges: [] }, 'nodes.1', 'validation.notFound'],
      [{ nodes: [a.id, annexPose.id], edges: [] }, 'nodes.1', 'poseValidation.nodeBuilding'],
      [{ nodes: [a.id, a.id], edges: [] }, 'nodes.1', 'poseValidation.duplicateNode'],
      [
        { nodes: [a.id], edges: [{ from: a.id, to: b.id, bidirectional: false }] },
        'edges.0',
        'poseValidation.edgeNodeMissing',
      ],
      [
        { nodes: [a.id, b.id], edges: [{ from: a.id, to: a.id, bidirectional: false }] },
        'edges.0',
        'poseValidation.selfLoop',
      ],
      [
        {
          nodes: [a.id, b.id],
          edges: [
            { from: a.id, to: b.id, bidirectional: false },
            { from: a.id, to: b.id, bidirectional: false },
          ],
        },
        'edges.1',
        'poseValidation.duplicateEdge',
      ],
      [
        {
          nodes: [a.id, b.id],
          edges: [
            { from: a.id, to: b.id, bidirectional: true },
            { from: b.id, to: a.id, bidirectional: false },
          ],
        },
        'edges.1',
        'poseValidation.duplicateEdge',
      ],
      [{ name: 'x'.repeat(49), nodes: [], edges: [] }, 'name', 'validation.max48'],
    ];
    for (const [over, path, message] of cases) {
      const res = await call('POST', '/pose-networks', auth.orgAdmin, { ...base, ...(over as object) });
      expect({ over, status: res.statusCode }).toEqual({ over, status: 400 });
      expect(errorOf(res).details).toEqual(expect.arrayContaining([expect.objectContaining({ path, message })]));
    }
    // A building's poses may be used in a network of that building.
    await createNetwork({ buildingId: annexId, nodes: [a.id, annexPose.id] });
  });

  it('refuses to delete or re-model a pose in use, naming the networks (409 IN_USE)', async () => {
    const a = await createPose();
    const b = await createPose();
    const first = await createNetwork({
      name: uniq('Alpha net'),
      nodes: [a.id, b.id],
      edges: [{ from: a.id, to: b.id, bidirectional: true }],
    });
    const second = await createNetwork({ name: uniq('Beta net'), nodes: [a.id] });
    const del = await call('DELETE', `/pose-defs/${a.id}`, auth.orgAdmin);
    expect(del.statusCode).toBe(409);
    const error = errorOf(del);
    expect(error.code).toBe('IN_USE');
    expect(error.details?.map((d) => d.message).sort()).toEqual([first.name, second.name].sort());
    expect(error.message).toContain(first.name);

    const remodel = await call('PUT', `/pose-defs/${a.id}`, auth.orgAdmin, {
      ...poseInput({ name: a.name, armModel: 200, arms: homeArms(200, 1) }),
      updatedAt: a.updatedAt,
    });
    expect(remodel.statusCode).toBe(409);
    expect(errorOf(remodel).code).toBe('IN_USE');
    // Moving it to a building its organization-wide networks cannot use: refused too.
    const move = await call('PUT', `/pose-defs/${a.id}`, auth.orgAdmin, {
      ...poseInput({ name: a.name, buildingId: annexId }),
      updatedAt: a.updatedAt,
    });
    expect(errorOf(move).code).toBe('IN_USE');
    // Changing its angles is fine.
    const angles = await call('PUT', `/pose-defs/${a.id}`, auth.orgAdmin, {
      ...poseInput({ name: a.name, arms: [[10, 10, 10, 10]] }),
      updatedAt: a.updatedAt,
    });
    expect(angles.statusCode, angles.body).toBe(200);
    expect((await call('GET', `/pose-defs/${a.id}`, auth.orgAdmin)).statusCode).toBe(200);
  });
});
