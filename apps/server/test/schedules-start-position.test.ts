import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import {
  scheduleLogSchema,
  scheduleReferenceSchema,
  toZoned,
  type FlowRun,
  type ScheduleLog,
  type ScheduleReference,
} from '@portal/contract';
import { demoMapDocument } from '../src/seed.ts';
import type { ScheduleDispatcher } from '../src/modules/schedules/dispatcher.ts';
import { runRepo } from '../src/modules/flow-runs/run-repo.ts';
import { NOT_CHECKED_NO_REFERENCES } from '../src/modules/schedules/start-position-service.ts';
import { createTestApp, errorOf, registerDemoRobot, simOptions, until, type TestApp } from './helpers.ts';

/**
 * The start-position check of schedules (docs/api-schedules.md "Start position") against a real
 * simulated robot whose camera renders its view: the reference image is taken when the entry is
 * saved; at the due time the robot's photo is compared with it. The robot is "moved" by restarting
 * the simulator at another pose (as if pushed there). The app's clock is moved forward and the
 * dispatcher's rounds are run by the test.
 */
describe('schedule start-position check', () => {
  let t: TestApp;
  let sim: SimRobot;
  let created: Awaited<ReturnType<typeof registerDemoRobot>>['created'];
  let robotId: number;
  let floorId: number;
  let buildingId: number;
  let admin: string;
  let waitFlow: number;
  let longWaitFlow: number;
  let offsetMinutes = 0;
  const START = { x: 3, y: 1, theta: 0 };
  const ELSEWHERE = { x: 6, y: 3, theta: Math.PI / 2 };

  const dispatcher = () => (t.app as unknown as { scheduleDispatcher: ScheduleDispatcher }).scheduleDispatcher;
  const round = async () => {
    await dispatcher().tick();
    await dispatcher().idle();
  };
  const advance = (minutes: number) => {
    offsetMinutes += minutes;
    t.advance(minutes);
  };
  const local = (minutes: number) => toZoned(Date.now() + (offsetMinutes + minutes) * 60_000, 'Asia/Tokyo');

  async function placeRobot(pose: { x: number; y: number; theta: number }): Promise<void> {
    await sim?.stop();
    await until(() => !t.link.details(robotId)?.online);
    sim = await startRobot(
      simOptions(created, {
        model: 'pro',
        mapId: `floor-${floorId}`,
        start: pose,
        battery: 90,
        speedScale: 10,
        visualizationHz: 5,
      }),
    );
    await until(() => {
      const pos = t.link.details(robotId)?.state?.agvPosition;
      return (
        t.link.details(robotId)?.online && pos && Math.abs(pos.x - pose.x) < 0.01 && Math.abs(pos.y - pose.y) < 0.01
      );
    });
  }

  async function createFlow(name: string, seconds: number): Promise<number> {
    const res = await t.call('POST', '/flows', admin, {
      name,
      description: '',
      buildingId,
      floorId,
      flowGroupId: null,
      enabled: true,
      definition: { version: 1, steps: [{ kind: 'wait', id: 'w', seconds }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number }>().id;
  }
  async function createEntry(title: string): Promise<number> {
    const res = await t.call('POST', '/schedules', admin, {
      title,
      description: '',
      robotId,
      flowId: waitFlow,
      start: local(2),
      end: local(32),
      repeat: 'none',
      weekdays: [0],
      repeatUntil: null,
      priority: false,
      skipHolidays: false,
      enabled: true,
      exceptions: [],
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number }>().id;
  }
  const references = async (id: number): Promise<ScheduleReference[]> => {
    const res = await t.call('GET', `/schedules/${id}/reference`, admin);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<unknown[]>().map((r) => scheduleReferenceSchema.parse(r));
  };
  /** The reference taken in the background after the save. */
  const referenceTaken = (id: number) => until(async () => (await references(id))[0], 30_000);
  const logsOf = async (scheduleId: number): Promise<ScheduleLog[]> => {
    const filter = encodeURIComponent(JSON.stringify({ where: { scheduleId } }));
    const res = await t.call('GET', `/schedule-logs?filter=${filter}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<unknown[]>().map((l) => scheduleLogSchema.parse(l));
  };
  const runCount = async () =>
    Number(
      (
        await t.db.kysely
          .selectFrom('flow_runs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const runStatus = async (id: number) => (await runRepo(t.db.kysely).byId(id))?.status;

  beforeAll(async () => {
    t = await createTestApp({ SCHEDULE_TICK_MS: '0', SCHEDULE_GRACE_MINUTES: '10' });
    admin = (await t.as('orgadmin@demo.example')).authorization;
    const r = await registerDemoRobot(t, { serialNo: 'SCHED-POS', name: 'Start position', model: 'pro' });
    created = r.created;
    robotId = r.created.robot.id;
    floorId = r.floorId;
    buildingId = r.buildingId;
    const saved = await t.call('PUT', `/floors/${floorId}/map`, admin, {
      baseRevision: 0,
      document: demoMapDocument(),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await placeRobot(START);
    waitFlow = await createFlow('Short wait', 1);
    longWaitFlow = await createFlow('Long wait', 120);
  }, 60_000);

  afterEach(async () => {
    await dispatcher().idle();
    const active = await runRepo(t.db.kysely).activeOfRobot(robotId);
    if (active) {
      await t.call('POST', `/flow-runs/${active.id}/cancel`, admin);
      await until(async () => !['running', 'paused'].includes((await runStatus(active.id)) ?? ''), 30_000);
    }
    await t.db.kysely.updateTable('schedules').set({ enabled: 0, next_due_at: null }).execute();
  });

  afterAll(async () => {
    await sim?.stop().catch(() => undefined);
    await t?.close();
  });

  it('takes the reference image at save; at the start position the flow starts and the log says the score', async () => {
    const id = await createEntry('At the start');
    const [ref] = [await referenceTaken(id)];
    expect(ref).toMatchObject({ camera: 'v1', width: 1280, height: 720, robotId, flowId: waitFlow });
    expect(ref!.pose).toMatchObject({ x: START.x, y: START.y });
    const img = await t.app.inject({ method: 'GET', url: ref!.url });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');

    // The reference's comparison grid is stored with it (migration 031).
    const row = await t.db.kysely
      .selectFrom('schedule_references')
      .selectAll()
      .where('schedule_id', '=', id)
      .executeTakeFirst();
    expect(Buffer.from(row!.grid!, 'base64')).toHaveLength(64 * 40);

    const widths: number[] = [];
    const off = t.link.on('photo', (e) => {
      if (e.robotId === robotId) widths.push(e.message.width);
    });
    advance(3);
    await round();
    off();
    // The check asked for a small photo (START_PHOTO_WIDTH) and the robot sent one.
    expect(widths).toEqual([320]);
    const [line] = await logsOf(id);
    expect(line).toMatchObject({ result: 'running', reason: null });
    expect(line!.detail).toMatch(/^start position checked: camera v1 score (0\.9\d\d|1\.000)/);
    // The same as a code with parameters (written in the reader's language by the browser).
    expect(line).toMatchObject({ detailCode: 'startPositionChecked', detailParams: { camera: 'v1', threshold: 0.7 } });
    expect(line!.detailParams.score).toBeGreaterThanOrEqual(0.9);
    expect(await runStatus(line!.flowRunId!)).toBe('running');
  }, 60_000);

  it('elsewhere: the due occurrence is logged START_POSITION with the score, no run starts and the running flow is not pre-empted', async () => {
    const id = await createEntry('Moved away');
    await referenceTaken(id);
    await placeRobot(ELSEWHERE);
    const manual = await t.call('POST', `/flows/${longWaitFlow}/runs`, admin, { robotId });
    expect(manual.statusCode, manual.body).toBe(201);
    const manualRun = manual.json<FlowRun>();
    const runsBefore = await runCount();

    advance(3);
    await round();
    const [line] = await logsOf(id);
    expect(line).toMatchObject({ result: 'fail', reason: 'START_POSITION', flowRunId: null });
    expect(line!.detail).toMatch(/^not at the start position: camera v1 score -?0\.\d{3} \(pass ≥ 0\.7\)/);
    expect(line!.detail).toMatch(/reported position \d+\.\d\d m from the reference's/);
    expect(line).toMatchObject({ detailCode: 'startPositionFailed', detailParams: { camera: 'v1', threshold: 0.7 } });
    expect(line!.detailParams.score).toBeLessThan(0.7);
    expect(line!.detailParams.distance).toBeGreaterThan(0);
    expect(await runCount()).toBe(runsBefore);
    expect(await runStatus(manualRun.id)).toBe('running');
  }, 60_000);

  it('the operator retakes the reference where the robot stands (POST /reference); then it passes there', async () => {
    const id = await createEntry('Retaken');
    const first = await referenceTaken(id);
    const taken = await t.call('POST', `/schedules/${id}/reference`, admin);
    expect(taken.statusCode, taken.body).toBe(200);
    const [again] = taken.json<ScheduleReference[]>();
    expect(again!.url).not.toBe(first!.url);
    expect(await references(id)).toHaveLength(1);
    // The replaced image's file is gone.
    const key = /files\/([0-9a-f]+)/.exec(first!.url)![1]!;
    expect(
      await t.db.kysely.selectFrom('files').select('key').where('key', '=', key).executeTakeFirst(),
    ).toBeUndefined();

    advance(3);
    await round();
    const [line] = await logsOf(id);
    expect(line).toMatchObject({ result: 'running' });
    expect(line!.detail).toMatch(/^start position checked/);

    // Deleting the entry removes its reference image's file.
    const left = /files\/([0-9a-f]+)/.exec(again!.url)![1]!;
    expect((await t.call('DELETE', `/schedules/${id}`, admin)).statusCode).toBe(204);
    expect(
      await t.db.kysely.selectFrom('files').select('key').where('key', '=', left).executeTakeFirst(),
    ).toBeUndefined();
  }, 60_000);

  it('a reference taken before grids were stored gets its grid at its first check, and the check passes', async () => {
    const id = await createEntry('Older reference');
    await referenceTaken(id);
    await t.db.kysely.updateTable('schedule_references').set({ grid: null }).where('schedule_id', '=', id).execute();
    advance(3);
    await round();
    const [line] = await logsOf(id);
    expect(line).toMatchObject({ result: 'running', detailCode: 'startPositionChecked' });
    const row = await t.db.kysely
      .selectFrom('schedule_references')
      .select('grid')
      .where('schedule_id', '=', id)
      .executeTakeFirst();
    expect(Buffer.from(row!.grid!, 'base64')).toHaveLength(64 * 40);
  }, 60_000);

  it('an entry without reference images is not checked: the flow starts and the detail says so', async () => {
    const id = await createEntry('No reference');
    await referenceTaken(id);
    await t.db.kysely.deleteFrom('schedule_references').where('schedule_id', '=', id).execute();
    advance(3);
    await round();
    const [line] = await logsOf(id);
    expect(line).toMatchObject({
      result: 'running',
      reason: null,
      detail: NOT_CHECKED_NO_REFERENCES,
      detailCode: 'startPositionNoReferences',
    });
  }, 60_000);

  it('POST /reference with the robot offline is 409 ROBOT_OFFLINE; an unknown entry is 404', async () => {
    const id = await createEntry('Offline');
    await referenceTaken(id);
    await sim.stop();
    await until(() => !t.link.details(robotId)?.online);
    const res = await t.call('POST', `/schedules/${id}/reference`, admin);
    expect(res.statusCode, res.body).toBe(409);
    expect(errorOf(res).code).toBe('ROBOT_OFFLINE');
    expect((await t.call('POST', `/schedules/999999/reference`, admin)).statusCode).toBe(404);
    await placeRobot(START);
  }, 60_000);
});

describe('schedule start-position check turned off (SCHEDULE_START_CHECK=0)', () => {
  let t: TestApp;
  let sim: SimRobot | undefined;

  afterAll(async () => {
    await sim?.stop().catch(() => undefined);
    await t?.close();
  });

  it('takes no reference photo at save and starts the due occurrence without a check', async () => {
    t = await createTestApp({ SCHEDULE_TICK_MS: '0', SCHEDULE_START_CHECK: '0' });
    const admin = (await t.as('orgadmin@demo.example')).authorization;
    const r = await registerDemoRobot(t, { serialNo: 'SCHED-NOCHECK', name: 'No check', model: 'pro' });
    const robotId = r.created.robot.id;
    const saved = await t.call('PUT', `/floors/${r.floorId}/map`, admin, {
      baseRevision: 0,
      document: demoMapDocument(),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    sim = await startRobot(
      simOptions(r.created, {
        model: 'pro',
        mapId: `floor-${r.floorId}`,
        start: { x: 3, y: 1, theta: 0 },
        battery: 90,
      }),
    );
    await until(() => t.link.details(robotId)?.online && t.link.details(robotId)?.state);
    const flow = await t.call('POST', '/flows', admin, {
      name: 'Wait',
      description: '',
      buildingId: r.buildingId,
      floorId: r.floorId,
      flowGroupId: null,
      enabled: true,
      definition: { version: 1, steps: [{ kind: 'wait', id: 'w', seconds: 1 }] },
    });
    expect(flow.statusCode, flow.body).toBe(201);
    const entry = await t.call('POST', '/schedules', admin, {
      title: 'Unchecked',
      description: '',
      robotId,
      flowId: flow.json<{ id: number }>().id,
      start: toZoned(Date.now() + 2 * 60_000, 'Asia/Tokyo'),
      end: toZoned(Date.now() + 32 * 60_000, 'Asia/Tokyo'),
      repeat: 'none',
      weekdays: [0],
      repeatUntil: null,
      priority: false,
      skipHolidays: false,
      enabled: true,
      exceptions: [],
    });
    expect(entry.statusCode, entry.body).toBe(201);
    const id = entry.json<{ id: number }>().id;
    t.advance(3);
    const d = (t.app as unknown as { scheduleDispatcher: ScheduleDispatcher }).scheduleDispatcher;
    await d.tick();
    await d.idle();
    const filter = encodeURIComponent(JSON.stringify({ where: { scheduleId: id } }));
    const [line] = (await t.call('GET', `/schedule-logs?filter=${filter}`, admin)).json<ScheduleLog[]>();
    // Not "start position not checked: …": the check did not run at all.
    expect(line).toMatchObject({ result: 'running', reason: null, detail: '' });
    expect((await t.call('GET', `/schedules/${id}/reference`, admin)).json<unknown[]>()).toEqual([]);
  }, 60_000);
});
