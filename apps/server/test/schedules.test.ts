import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  scheduleLogSchema,
  scheduleOccurrenceSchema,
  scheduleSchema,
  type Schedule,
  type ScheduleInput,
} from '@portal/contract';
import { createTestApp, errorOf, registerDemoRobot, type TestApp } from './helpers.ts';

/**
 * Schedule entries through the API (docs/api-schedules.md): create, read, list, update (versioned),
 * delete with audit; validation as localized 400s; tenancy (general operators: their building; the
 * flow and the robot of one building); the occurrences of the calendar in the building's zone.
 */
let t: TestApp;
const auth = { general: '', orgAdmin: '', sysAdmin: '' };
let buildingId: number;
let floorId: number;
let robotId: number;
let flowId: number;
let disabledFlowId: number;
let annexId: number;
let annexFlowId: number;
let annexRobotId: number;

const waitFlow = (name: string, b: number, f: number, enabled = true) =>
  t.call('POST', '/flows', auth.orgAdmin, {
    name,
    description: '',
    buildingId: b,
    floorId: f,
    flowGroupId: null,
    enabled,
    definition: { version: 1, steps: [{ kind: 'wait', id: 'w', seconds: 5 }] },
  });

const input = (over: Partial<ScheduleInput> = {}): ScheduleInput => ({
  title: 'Night patrol',
  description: 'Lobby round',
  flowId,
  robotId,
  start: '2030-03-04T22:00',
  end: '2030-03-04T23:00',
  repeat: 'weekly',
  weekdays: [1, 3],
  repeatUntil: null,
  priority: false,
  skipHolidays: false,
  enabled: true,
  exceptions: [],
  ...over,
});

async function create(over: Partial<ScheduleInput> = {}, authorization = auth.orgAdmin): Promise<Schedule> {
  const res = await t.call('POST', '/schedules', authorization, input(over));
  expect(res.statusCode, res.body).toBe(201);
  return scheduleSchema.parse(res.json());
}

async function refused(method: 'POST' | 'PUT', url: string, body: unknown, authorization = auth.orgAdmin) {
  const res = await t.call(method, url, authorization, body);
  expect(res.statusCode, res.body).toBe(400);
  const e = errorOf(res);
  expect(e.code).toBe('VALIDATION_FAILED');
  return (e.details ?? []).map((d) => `${d.path}:${d.message}`);
}

beforeAll(async () => {
  t = await createTestApp({ SCHEDULE_TICK_MS: '0' });
  auth.general = (await t.as('operator@demo.example')).authorization;
  auth.orgAdmin = (await t.as('orgadmin@demo.example')).authorization;
  auth.sysAdmin = (await t.as('sysadmin@demo.example')).authorization;
  const r = await registerDemoRobot(t, { serialNo: 'SCH-001', name: 'Scheduled', model: 'pro' });
  robotId = r.created.robot.id;
  buildingId = r.buildingId;
  floorId = r.floorId;
  const f = await waitFlow('Wait a bit', buildingId, floorId);
  expect(f.statusCode, f.body).toBe(201);
  flowId = f.json<{ id: number }>().id;
  const d = await waitFlow('Disabled', buildingId, floorId, false);
  expect(d.statusCode, d.body).toBe(201);
  disabledFlowId = d.json<{ id: number }>().id;

  const org = await t.db.kysely
    .selectFrom('buildings')
    .select('organization_id')
    .where('id', '=', buildingId)
    .executeTakeFirstOrThrow();
  const annex = await t.call('POST', '/buildings', auth.orgAdmin, {
    name: 'Schedule Annex',
    prefecture: '',
    city: '',
    address: '',
    postalCode: '',
    latitude: null,
    longitude: null,
    organizationId: org.organization_id,
    status: 1,
  });
  expect(annex.statusCode, annex.body).toBe(201);
  annexId = annex.json<{ id: number }>().id;
  const af = await t.call('POST', `/buildings/${annexId}/floors`, auth.orgAdmin, {
    type: 'office',
    resolution: null,
    originX: null,
    originY: null,
    name: '1F',
    index: 1,
  });
  expect(af.statusCode, af.body).toBe(201);
  const annexFloor = af.json<{ id: number }>().id;
  const fa = await waitFlow('Annex wait', annexId, annexFloor);
  expect(fa.statusCode, fa.body).toBe(201);
  annexFlowId = fa.json<{ id: number }>().id;
  const ra = await t.call('POST', '/robots', auth.orgAdmin, {
    serialNo: 'SCH-ANNEX',
    name: 'Annex robot',
    model: 'pro',
    version: '',
    hardwareRevision: '',
    buildingId: annexId,
    floorId: annexFloor,
    groupId: null,
    status: 1,
    longTermRecordingAutoStart: false,
    videoMode: 'medium',
    notes: '',
  });
  expect(ra.statusCode, ra.body).toBe(201);
  annexRobotId = ra.json<{ robot: { id: number } }>().robot.id;
});
afterAll(async () => {
  await t?.close();
});

describe('schedule entries', () => {
  it('creates, reads, lists, updates and deletes an entry, auditing each change', async () => {
    const s = await create();
    expect(s).toMatchObject({
      title: 'Night patrol',
      buildingId,
      timeZone: 'Asia/Tokyo',
      flowId,
      robotId,
      start: '2030-03-04T22:00',
      weekdays: [1, 3],
      // The first occurrence: Monday 2030-03-04 22:00 in Tokyo.
      nextAt: '2030-03-04T13:00:00.000Z',
    });
    expect((await t.call('GET', `/schedules/${s.id}`, auth.general)).json()).toEqual(s);

    const filter = encodeURIComponent(JSON.stringify({ where: { robotId, title: 'Night patrol' } }));
    const list = await t.call('GET', `/schedules?filter=${filter}`, auth.general);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<Schedule[]>().map((x) => x.id)).toContain(s.id);
    expect(Number(list.headers['x-total-count'])).toBeGreaterThanOrEqual(1);

    const up = await t.call('PUT', `/schedules/${s.id}`, auth.general, {
      ...input({ title: 'Renamed', repeat: 'none', weekdays: [1] }),
      updatedAt: s.updatedAt,
    });
    expect(up.statusCode, up.body).toBe(200);
    const updated = scheduleSchema.parse(up.json());
    expect(updated).toMatchObject({ title: 'Renamed', repeat: 'none', repeatUntil: null });
    // The same version again is stale: 409, nothing overwritten.
    const stale = await t.call('PUT', `/schedules/${s.id}`, auth.orgAdmin, {
      ...input({ title: 'Lost' }),
      updatedAt: s.updatedAt,
    });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).code).toBe('STALE_UPDATE');

    expect((await t.call('DELETE', `/schedules/${s.id}`, auth.orgAdmin)).statusCode).toBe(204);
    expect((await t.call('GET', `/schedules/${s.id}`, auth.orgAdmin)).statusCode).toBe(404);
    const audits = await t.db.kysely
      .selectFrom('audit_logs')
      .select('action')
      .where('target_type', '=', 'schedule')
      .where('target_id', '=', String(s.id))
      .orderBy('id')
      .execute();
    expect(audits.map((a) => a.action)).toEqual(['schedule.create', 'schedule.update', 'schedule.delete']);
  });

  it('refuses bad input with localized 400s, never a 500', async () => {
    expect(await refused('POST', '/schedules', input({ title: '' }))).toEqual(['title:validation.required']);
    expect(await refused('POST', '/schedules', input({ end: '2030-03-04T21:00' }))).toEqual([
      'end:scheduleValidation.endBeforeStart',
    ]);
    expect(await refused('POST', '/schedules', { ...input(), start: '2030-02-30T09:00' })).toContain(
      'start:scheduleValidation.dateTime',
    );
    expect(await refused('POST', '/schedules', input({ end: '2030-03-06T09:00' }))).toEqual([
      'end:scheduleValidation.tooLong',
    ]);
    expect(await refused('POST', '/schedules', input({ weekdays: [] }))).toEqual([
      'weekdays:scheduleValidation.weekdays',
    ]);
    expect(await refused('POST', '/schedules', input({ repeatUntil: '2030-01-01' }))).toEqual([
      'repeatUntil:scheduleValidation.untilBeforeStart',
    ]);
    expect(await refused('POST', '/schedules', input({ flowId: disabledFlowId }))).toEqual([
      'flowId:scheduleValidation.flowDisabled',
    ]);
    expect(await refused('POST', '/schedules', input({ flowId: 999_999 }))).toEqual(['flowId:validation.notFound']);
    expect(await refused('POST', '/schedules', input({ robotId: 999_999 }))).toEqual(['robotId:validation.notFound']);
    expect(await refused('POST', '/schedules', input({ robotId: annexRobotId }))).toEqual([
      'robotId:scheduleValidation.robotBuilding',
    ]);
    const res = await t.call('POST', '/schedules', auth.orgAdmin, { title: 5 });
    expect(res.statusCode).toBe(400);
  });

  it('keeps general operators to their building', async () => {
    const annexEntry = await create({ flowId: annexFlowId, robotId: annexRobotId, title: 'Annex round' });
    expect((await t.call('GET', `/schedules/${annexEntry.id}`, auth.general)).statusCode).toBe(404);
    const list = await t.call('GET', '/schedules', auth.general);
    expect(list.json<Schedule[]>().map((x) => x.id)).not.toContain(annexEntry.id);
    expect(
      await refused('POST', '/schedules', input({ flowId: annexFlowId, robotId: annexRobotId }), auth.general),
    ).toEqual(['flowId:validation.notFound']);
    const put = await t.call('PUT', `/schedules/${annexEntry.id}`, auth.general, {
      ...input(),
      updatedAt: annexEntry.updatedAt,
    });
    expect(put.statusCode).toBe(404);
    expect((await t.call('DELETE', `/schedules/${annexEntry.id}`, auth.general)).statusCode).toBe(404);
    // Their own building's entries they may change.
    const own = await create({ title: 'Own' }, auth.general);
    expect((await t.call('DELETE', `/schedules/${own.id}`, auth.general)).statusCode).toBe(204);
  });

  it('answers the occurrences of a window with their log lines; a window over 62 days is a 400', async () => {
    const s = await create({
      title: 'Calendar',
      start: '2030-03-04T09:00',
      end: '2030-03-04T09:30',
      repeat: 'daily',
      weekdays: [0, 1, 2, 3, 4, 5, 6],
      repeatUntil: '2030-03-08',
      exceptions: [
        { date: '2030-03-05', action: 'skip' },
        { date: '2030-03-06', action: 'move', start: '2030-03-06T15:00', end: '2030-03-06T16:00' },
      ],
    });
    // A log line of the first occurrence (as the dispatcher writes it).
    await t.db.kysely
      .insertInto('schedule_logs')
      .values({
        schedule_id: s.id,
        organization_id: s.organizationId,
        building_id: s.buildingId,
        robot_id: robotId,
        flow_id: flowId,
        flow_run_id: null,
        title: s.title,
        priority: 0,
        due_at: '2030-03-04T00:00:00.000Z',
        end_at: '2030-03-04T00:30:00.000Z',
        started_at: null,
        ended_at: '2030-03-04T00:00:01.000Z',
        result: 'fail',
        reason: 'ROBOT_OFFLINE',
        detail: 'the robot is offline',
        lease_owner: null,
        lease_until: null,
        created_at: '2030-03-04T00:00:00.000Z',
      })
      .execute();
    const q = (from: string, to: string) =>
      t.call(
        'GET',
        `/schedules/occurrences?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&robotId=${robotId}`,
        auth.general,
      );
    const res = await q('2030-03-01T00:00:00+09:00', '2030-03-31T00:00:00+09:00');
    expect(res.statusCode, res.body).toBe(200);
    const mine = res
      .json<unknown[]>()
      .map((o) => scheduleOccurrenceSchema.parse(o))
      .filter((o) => o.scheduleId === s.id);
    expect(mine.map((o) => [o.date, o.start, o.startAt, o.moved, o.log?.reason ?? null])).toEqual([
      ['2030-03-04', '2030-03-04T09:00', '2030-03-04T00:00:00.000Z', false, 'ROBOT_OFFLINE'],
      ['2030-03-06', '2030-03-06T15:00', '2030-03-06T06:00:00.000Z', true, null],
      ['2030-03-07', '2030-03-07T09:00', '2030-03-07T00:00:00.000Z', false, null],
      ['2030-03-08', '2030-03-08T09:00', '2030-03-08T00:00:00.000Z', false, null],
    ]);
    expect(mine[0]!.log).toMatchObject({ result: 'fail' });

    const wide = await q('2030-03-01T00:00:00Z', '2030-05-03T00:00:00Z');
    expect(wide.statusCode).toBe(400);
    expect(errorOf(wide).details?.[0]).toMatchObject({ path: 'to', message: 'scheduleValidation.window' });
    expect((await q('2030-03-05T00:00:00Z', '2030-03-01T00:00:00Z')).statusCode).toBe(400);
    expect((await q('yesterday', '2030-03-01T00:00:00Z')).statusCode).toBe(400);

    // The log line through the log's list, filtered by result and robot.
    const filter = encodeURIComponent(JSON.stringify({ where: { result: 'fail', robotId } }));
    const logs = await t.call('GET', `/schedule-logs?filter=${filter}`, auth.general);
    expect(logs.statusCode, logs.body).toBe(200);
    const lines = logs.json<unknown[]>().map((l) => scheduleLogSchema.parse(l));
    expect(lines.find((l) => l.scheduleId === s.id)).toMatchObject({ reason: 'ROBOT_OFFLINE', title: 'Calendar' });
    const bad = await t.call(
      'GET',
      `/schedule-logs?filter=${encodeURIComponent('{"where":{"nope":1}}')}`,
      auth.general,
    );
    expect(bad.statusCode).toBe(400);
  });

  it('skips Japanese public holidays when asked', async () => {
    const s = await create({
      title: 'Workdays',
      start: '2030-05-01T08:00',
      end: '2030-05-01T08:15',
      repeat: 'daily',
      weekdays: [0, 1, 2, 3, 4, 5, 6],
      repeatUntil: '2030-05-07',
      skipHolidays: true,
    });
    const res = await t.call(
      'GET',
      `/schedules/occurrences?from=${encodeURIComponent('2030-05-01T00:00:00+09:00')}&to=${encodeURIComponent('2030-05-08T00:00:00+09:00')}`,
      auth.orgAdmin,
    );
    expect(res.statusCode, res.body).toBe(200);
    const dates = res
      .json<Array<{ scheduleId: number; date: string }>>()
      .filter((o) => o.scheduleId === s.id)
      .map((o) => o.date);
    // 3 May (Constitution Day), 4 May (Greenery Day), 5 May (Children's Day), 6 May (substitute) are holidays.
    expect(dates).toEqual(['2030-05-01', '2030-05-02', '2030-05-07']);
  });
});
