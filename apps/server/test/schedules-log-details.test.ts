import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import {
  scheduleLogSchema,
  scheduleOccurrenceSchema,
  toZoned,
  type FlowStep,
  type ScheduleLog,
} from '@portal/contract';
import { z } from 'zod';
import type { ScheduleDispatcher } from '../src/modules/schedules/dispatcher.ts';
import { createTestApp, registerDemoRobot, simOptions, until, type TestApp } from './helpers.ts';

/**
 * Schedule log lines carry their detail as a code with parameters (the browser writes the words) and
 * keep the robot's and the flow's names for when those are deleted (docs/api-schedules.md "Log
 * lines"). The app's clock is moved forward and the dispatcher's rounds are run by the test.
 */
describe('schedule log details and names', () => {
  let t: TestApp;
  let sim: SimRobot;
  let robotId: number;
  let offlineRobotId: number;
  let buildingId: number;
  let floorId: number;
  let admin: string;
  let offsetMinutes = 0;
  let waitFlow: number;
  let longWaitFlow: number;

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

  async function createFlow(name: string, steps: FlowStep[]): Promise<number> {
    const res = await t.call('POST', '/flows', admin, {
      name,
      description: '',
      buildingId,
      floorId,
      flowGroupId: null,
      enabled: true,
      definition: { version: 1, steps },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number }>().id;
  }
  async function createEntry(over: Record<string, unknown>): Promise<number> {
    const res = await t.call('POST', '/schedules', admin, {
      title: 'Entry',
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
      ...over,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number }>().id;
  }
  const logs = async (where: Record<string, unknown>): Promise<ScheduleLog[]> => {
    const filter = encodeURIComponent(JSON.stringify({ where }));
    const res = await t.call('GET', `/schedule-logs?filter=${filter}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<unknown[]>().map((l) => scheduleLogSchema.parse(l));
  };

  beforeAll(async () => {
    t = await createTestApp({ SCHEDULE_TICK_MS: '0', SCHEDULE_GRACE_MINUTES: '10', SCHEDULE_START_CHECK: '0' });
    admin = (await t.as('orgadmin@demo.example')).authorization;
    const r = await registerDemoRobot(t, { serialNo: 'DETAIL-001', name: 'Detail robot', model: 'pro' });
    robotId = r.created.robot.id;
    buildingId = r.buildingId;
    floorId = r.floorId;
    const off = await registerDemoRobot(t, { serialNo: 'DETAIL-OFF', name: 'Gone robot', model: 'pro' });
    offlineRobotId = off.created.robot.id;
    sim = await startRobot(
      simOptions(r.created, {
        model: 'pro',
        mapId: `floor-${floorId}`,
        start: { x: 3, y: 1, theta: 0 },
        battery: 90,
        speedScale: 10,
        visualizationHz: 5,
      }),
    );
    await until(() => t.link.details(robotId)?.online && t.link.details(robotId)?.state);
    waitFlow = await createFlow('Detail wait', [{ kind: 'wait', id: 'w', seconds: 1 }]);
    longWaitFlow = await createFlow('Detail long wait', [{ kind: 'wait', id: 'w', seconds: 120 }]);
  });

  afterEach(async () => {
    await dispatcher().idle();
    const active = await t.db.kysely
      .selectFrom('flow_runs')
      .select('id')
      .where('status', 'in', ['running', 'paused'])
      .execute();
    for (const run of active) await t.call('POST', `/flow-runs/${run.id}/cancel`, admin);
    await until(async () => {
      const left = await t.db.kysely
        .selectFrom('flow_runs')
        .select('id')
        .where('status', 'in', ['running', 'paused'])
        .execute();
      return left.length === 0;
    }, 30_000);
    await t.db.kysely.updateTable('schedules').set({ enabled: 0, next_due_at: null }).execute();
  });

  afterAll(async () => {
    await sim?.stop().catch(() => undefined);
    await t?.close();
  });

  it('a missed occurrence: code missed with the minutes', async () => {
    const id = await createEntry({ title: 'Missed detail' });
    advance(15);
    await round();
    const [line] = await logs({ scheduleId: id });
    expect(line).toMatchObject({ result: 'fail', reason: 'MISSED', detailCode: 'missed' });
    expect(line!.detailParams.minutes).toBeGreaterThanOrEqual(12);
    expect(line!.detail).toMatch(/^found \d+ min after its due time$/);
  });

  it('a priority loser names the winning entry; an offline robot has its code', async () => {
    const start = local(2);
    const end = local(10);
    const plain = await createEntry({ title: 'Plain detail', start, end });
    const urgent = await createEntry({ title: 'Urgent detail', flowId: longWaitFlow, start, end, priority: true });
    const offline = await createEntry({ title: 'Offline detail', robotId: offlineRobotId, start, end });
    advance(3);
    await round();
    expect((await logs({ scheduleId: urgent }))[0]).toMatchObject({ result: 'running', detailCode: null });
    expect((await logs({ scheduleId: plain }))[0]).toMatchObject({
      result: 'fail',
      reason: 'PRIORITY',
      detailCode: 'priorityLost',
      detailParams: { scheduleId: urgent, title: 'Urgent detail' },
    });
    expect((await logs({ scheduleId: offline }))[0]).toMatchObject({
      result: 'fail',
      reason: 'ROBOT_OFFLINE',
      detailCode: 'robotOffline',
      detailParams: {},
      detail: 'the robot is offline',
    });
  });

  it('a failing health check lists its problems as codes', async () => {
    sim.injectFault('lowBattery');
    try {
      await until(() => (t.link.details(robotId)?.state?.batteryState.batteryCharge ?? 100) < 20);
      const id = await createEntry({ title: 'Health detail' });
      advance(3);
      await round();
      expect((await logs({ scheduleId: id }))[0]).toMatchObject({
        result: 'fail',
        reason: 'HEALTH_CHECK_FAILED',
        detailCode: 'healthProblems',
        detailParams: { problems: 'lowBattery' },
        detail: 'lowBattery',
      });
    } finally {
      sim.clearFault('lowBattery');
    }
    await until(() => (t.link.details(robotId)?.state?.batteryState.batteryCharge ?? 0) >= 20);
  });

  it('lines keep the names of a deleted robot and a deleted flow, marked deleted; live ones show their current names', async () => {
    const doomedFlow = await createFlow('Doomed flow', [{ kind: 'wait', id: 'w', seconds: 1 }]);
    const start = local(2);
    const end = local(10);
    const onFlow = await createEntry({ title: 'Flow to delete', flowId: doomedFlow, start, end });
    const onRobot = await createEntry({ title: 'Robot to delete', robotId: offlineRobotId, start, end });
    advance(3);
    await round();
    const [flowLine] = await logs({ scheduleId: onFlow });
    const [robotLine] = await logs({ scheduleId: onRobot });
    expect(flowLine).toMatchObject({
      flowName: 'Doomed flow',
      flowDeleted: false,
      robotName: 'Detail robot',
      robotDeleted: false,
    });
    expect(robotLine).toMatchObject({ robotName: 'Gone robot', robotDeleted: false });

    // A live robot renamed since: its current name.
    await t.db.kysely.updateTable('robots').set({ name: 'Detail robot 2' }).where('id', '=', robotId).execute();
    await dispatcher().idle();
    const run = (await logs({ scheduleId: onFlow }))[0]!.flowRunId;
    if (run !== null) {
      await t.call('POST', `/flow-runs/${run}/cancel`, admin);
      await until(async () => {
        const r = await t.db.kysely.selectFrom('flow_runs').select('status').where('id', '=', run).executeTakeFirst();
        return r && r.status !== 'running' && r.status !== 'paused';
      }, 30_000);
    }
    expect((await t.call('DELETE', `/flows/${doomedFlow}`, admin)).statusCode).toBe(204);
    expect((await t.call('DELETE', `/robots/${offlineRobotId}`, admin)).statusCode).toBe(204);

    const [flowAfter] = await logs({ title: 'Flow to delete' });
    expect(flowAfter).toMatchObject({
      scheduleId: null,
      flowId: doomedFlow,
      flowName: 'Doomed flow',
      flowDeleted: true,
      robotName: 'Detail robot 2',
      robotDeleted: false,
    });
    const [robotAfter] = await logs({ scheduleId: onRobot });
    expect(robotAfter).toMatchObject({
      robotId: offlineRobotId,
      robotName: 'Gone robot',
      robotDeleted: true,
      flowName: 'Detail wait',
      flowDeleted: false,
    });

    // The deleted robot's entry stays: its next occurrence is logged ROBOT_UNAVAILABLE / robotDeleted, with the name.
    const later = await createEntryDirect(onRobot);
    advance(3);
    await round();
    const lines = await logs({ scheduleId: onRobot });
    expect(lines.find((l) => l.dueAt === later)).toMatchObject({
      result: 'fail',
      reason: 'ROBOT_UNAVAILABLE',
      detailCode: 'robotDeleted',
      robotName: 'Gone robot',
      robotDeleted: true,
    });
  });

  /** Makes the entry due again in two minutes (its robot is deleted, so it cannot be saved through the API). */
  async function createEntryDirect(id: number): Promise<string> {
    const due = new Date(Date.now() + (offsetMinutes + 2) * 60_000);
    due.setUTCSeconds(0, 0);
    const at = due.toISOString();
    await t.db.kysely
      .updateTable('schedules')
      .set({
        enabled: 1,
        repeat: 'daily',
        weekdays: JSON.stringify([0, 1, 2, 3, 4, 5, 6]),
        start_local: toZoned(due.getTime(), 'Asia/Tokyo'),
        end_local: toZoned(due.getTime() + 8 * 60_000, 'Asia/Tokyo'),
        next_due_at: at,
      })
      .where('id', '=', id)
      .execute();
    return at;
  }

  it('the calendar shows a line’s detail code and parameters', async () => {
    const id = await createEntry({ title: 'Calendar detail', robotId, flowId: waitFlow });
    advance(15);
    await round();
    const from = new Date(Date.now() + (offsetMinutes - 60) * 60_000).toISOString();
    const to = new Date(Date.now() + (offsetMinutes + 60) * 60_000).toISOString();
    const res = await t.call('GET', `/schedules/occurrences?from=${from}&to=${to}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    const occurrences = z.array(scheduleOccurrenceSchema).parse(res.json());
    const o = occurrences.find((x) => x.scheduleId === id);
    expect(o?.log).toMatchObject({ result: 'fail', reason: 'MISSED', detailCode: 'missed' });
    expect(o?.log?.detailParams.minutes).toBeGreaterThanOrEqual(12);
  });
});
