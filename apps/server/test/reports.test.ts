import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import {
  REPORT_TRACK_POINTS_MAX,
  toZoned,
  reportDetailViewSchema,
  reportSchema,
  type FlowDefinition,
  type FlowRun,
  type Report,
  type ReportDetailView,
} from '@portal/contract';
import { demoMapDocument } from '../src/seed.ts';
import { createRunner, initialCursor } from '../src/modules/flow-runs/runner.ts';
import { runRepo } from '../src/modules/flow-runs/run-repo.ts';
import { activityService } from '../src/modules/activity/activity-service.ts';
import { createOutbound } from '../src/lib/outbound.ts';
import { mapService } from '../src/modules/maps/map-service.ts';
import type { ReportWriter } from '../src/modules/reports/report-writer.ts';
import { encodeGrayPng, encodeRgbPng } from '../src/lib/png.ts';
import type { ScheduleDispatcher } from '../src/modules/schedules/dispatcher.ts';
import { imageWorkerJobs, pngThumbnailOffThread } from '../src/lib/image-worker.ts';
import { createTestApp, errorOf, registerDemoRobot, simOptions, until, type TestApp } from './helpers.ts';

/**
 * Reports (docs/api-reports.md) from real runs on a simulated robot: one per ended run (done, fail,
 * cancel, unknown after a restart), with the photo (full and thumbnail), where the robot was and the
 * path driven; the list's filters and tenancy.
 */
describe('reports', () => {
  let t: TestApp;
  let sim: SimRobot;
  let robotId: number;
  let floorId: number;
  let buildingId: number;
  let organizationId: number;
  let admin: string;
  let general: string;
  let sysadmin: string;

  const writerOf = () => (t.app as unknown as { reportWriter: ReportWriter }).reportWriter;
  const q = (where: unknown) => `/reports?filter=${encodeURIComponent(JSON.stringify({ where }))}`;

  async function createFlow(name: string, steps: FlowDefinition['steps'], reportType?: 0 | 1 | 30): Promise<number> {
    const res = await t.call('POST', '/flows', admin, {
      name,
      description: '',
      buildingId,
      floorId,
      flowGroupId: null,
      enabled: true,
      definition: { version: 1, steps, ...(reportType !== undefined ? { reportType } : {}) },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number }>().id;
  }
  const start = async (flowId: number) => {
    const res = await t.call('POST', `/flows/${flowId}/runs`, admin, { robotId });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<FlowRun>();
  };
  /** The report of a run once written. */
  const reportOf = (runId: number, ms = 60_000) =>
    until(async () => {
      const res = await t.call('GET', q({ flowRunId: runId }), admin);
      expect(res.statusCode, res.body).toBe(200);
      const list = res.json<Report[]>();
      return list.length === 1 ? reportSchema.parse(list[0]) : undefined;
    }, ms);
  const detailOf = async (id: number, auth = admin): Promise<ReportDetailView> => {
    const res = await t.call('GET', `/reports/${id}`, auth);
    expect(res.statusCode, res.body).toBe(200);
    return reportDetailViewSchema.parse(res.json());
  };
  const idle = async () => {
    await until(() => !t.link.busy(robotId));
    await until(async () => !(await runRepo(t.db.kysely).activeOfRobot(robotId)));
  };
  const reportCount = async (runId: number) =>
    Number(
      (
        await t.db.kysely
          .selectFrom('reports')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('flow_run_id', '=', runId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const pngSize = (b: Buffer) => ({ width: b.readUInt32BE(16), height: b.readUInt32BE(20) });

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.as('orgadmin@demo.example')).authorization;
    general = (await t.as('operator@demo.example')).authorization;
    sysadmin = (await t.as('sysadmin@demo.example')).authorization;
    const r = await registerDemoRobot(t, { serialNo: 'REP-001', name: 'Reporter', model: 'pro' });
    robotId = r.created.robot.id;
    floorId = r.floorId;
    buildingId = r.buildingId;
    organizationId = (
      await t.db.kysely
        .selectFrom('buildings')
        .select('organization_id')
        .where('id', '=', buildingId)
        .executeTakeFirstOrThrow()
    ).organization_id;
    const saved = await t.call('PUT', `/floors/${floorId}/map`, admin, {
      baseRevision: 0,
      document: demoMapDocument(),
    });
    expect(saved.statusCode, saved.body).toBe(200);
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
  });

  afterAll(async () => {
    await sim?.stop().catch(() => undefined);
    await t?.close();
  });

  it('writes a report of a done run with its photo (full and thumbnail), positions and the path driven', async () => {
    await idle();
    const flowId = await createFlow(
      'Photo patrol',
      [
        { kind: 'moveToWaypoint', id: 'p1', waypointId: 3 },
        { kind: 'takePhoto', id: 'shot', camera: 'v1', resolution: '4k', saveAsTaskImage: false },
        { kind: 'moveToWaypoint', id: 'p2', waypointId: 4 },
        { kind: 'moveToWaypoint', id: 'home', waypointId: 2 },
      ],
      1,
    );
    const run = await start(flowId);
    const report = await reportOf(run.id);
    expect(report).toMatchObject({
      flowRunId: run.id,
      flowId,
      flowName: 'Photo patrol',
      type: 1,
      organizationId,
      buildingId,
      buildingName: 'Demo Tower',
      floorId,
      robotId,
      robotName: 'Reporter',
      robotSerial: 'REP-001',
      caller: 'operator',
      callerName: '鈴木 一郎',
      scheduleId: null,
      result: 10,
      errorCode: null,
      abnormalCount: 0,
      photoCount: 1,
      detailCount: 4,
    });
    expect(report.thumbnailUrl).toMatch(/\/files\/[0-9a-f]{32}\?exp=\d+&sig=/);

    const d = await detailOf(report.id);
    expect(d.details.map((x) => [x.seq, x.stepId, x.kind, x.type, x.result])).toEqual([
      [1, 'p1', 'moveToWaypoint', 0, 10],
      [2, 'shot', 'takePhoto', 1, 10],
      [3, 'p2', 'moveToWaypoint', 0, 10],
      [4, 'home', 'moveToWaypoint', 0, 10],
    ]);
    expect(d.timeZone).toBe('Asia/Tokyo');
    // Where the robot was when each step ended: on the flow's floor, at the waypoints it drove to.
    const doc = demoMapDocument();
    const wp = (id: number) => doc.waypoints.find((w) => w.id === id)!;
    for (const x of d.details) {
      expect(x.floorId).toBe(floorId);
      expect(typeof x.x).toBe('number');
      expect(typeof x.y).toBe('number');
    }
    const p2 = d.details[2]!;
    expect(Math.hypot(p2.x! - wp(4).x, p2.y! - wp(4).y)).toBeLessThan(0.5);
    // The internal step data is not shown as values.
    expect(Object.keys(d.details[0]!.values)).not.toEqual(expect.arrayContaining(['track']));
    expect(d.details[0]!.values).toMatchObject({ waypointId: 3 });
    // A move's detail carries the waypoint's name, copied from the floor's map when the report was written.
    expect(d.details[0]!.values).toMatchObject({ waypointName: wp(3).name });
    expect(d.details[2]!.values).toMatchObject({ waypointName: wp(4).name });

    // The photo: the full image as the robot sent it and a smaller thumbnail, both through signed URLs.
    const photo = d.details[1]!.photo!;
    expect(photo).toMatchObject({ camera: 'v1' });
    expect(photo.fileName).toMatch(/^Reporter-\d{8}-\d{6}-2\.png$/);
    const full = await t.inject({ method: 'GET', url: photo.url });
    const thumb = await t.inject({ method: 'GET', url: photo.thumbnailUrl });
    expect(full.statusCode).toBe(200);
    expect(thumb.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('image/png');
    expect(thumb.headers['content-type']).toBe('image/png');
    expect(pngSize(full.rawPayload)).toEqual({ width: photo.width, height: photo.height });
    expect(pngSize(thumb.rawPayload).width).toBe(Math.min(320, photo.width));
    expect(thumb.rawPayload.length).toBeLessThan(full.rawPayload.length);
    expect(report.thumbnailUrl).toBe(photo.thumbnailUrl);

    // The path driven on the floor, thinned (no two consecutive points closer than 0.5 m).
    expect(d.tracks.map((x) => x.floorId)).toEqual([floorId]);
    const points = d.tracks[0]!.points;
    expect(points.length).toBeGreaterThan(3);
    for (let i = 1; i < points.length; i++)
      expect(Math.hypot(points[i]![0] - points[i - 1]![0], points[i]![1] - points[i - 1]![1])).toBeGreaterThanOrEqual(
        0.49,
      );
    // The run's record answers where the robot was at each step, not the track (read by the writer only).
    const runSteps = (await t.call('GET', `/flow-runs/${run.id}`, admin)).json<{
      steps: Array<{ stepId: string; data: Record<string, unknown> }>;
    }>().steps;
    const p1 = runSteps.find((x) => x.stepId === 'p1')!.data;
    expect(p1).toMatchObject({ waypointId: 3, atFloorId: floorId });
    expect(p1).not.toHaveProperty('track');
    const stored = await t.db.kysely.selectFrom('flow_run_steps').select('data').where('run_id', '=', run.id).execute();
    expect(stored.some((x) => 'track' in (JSON.parse(x.data) as object))).toBe(true);
    // It passed near Patrol 2 (waypoint 4).
    expect(Math.min(...points.map((p) => Math.hypot(p[0] - wp(4).x, p[1] - wp(4).y)))).toBeLessThan(1);
  }, 120_000);

  it('writes a cancelled run as 12 with its cancelled detail', async () => {
    await idle();
    const flowId = await createFlow('Long wait', [{ kind: 'wait', id: 'w', seconds: 600 }]);
    const run = await start(flowId);
    await until(async () => (await t.call('GET', `/flow-runs/${run.id}`, admin)).json<FlowRun>().currentStepId);
    expect((await t.call('POST', `/flow-runs/${run.id}/cancel`, admin)).statusCode).toBeLessThan(300);
    const report = await reportOf(run.id);
    expect(report).toMatchObject({ result: 12, type: 0, abnormalCount: 0, photoCount: 0, thumbnailUrl: null });
    const d = await detailOf(report.id);
    expect(d.details.map((x) => [x.stepId, x.result, x.type])).toEqual([['w', 12, 50]]);
  }, 60_000);

  it('writes a failed run as 9 with the failing detail’s code, and a run that skipped a failed step as 11', async () => {
    await idle();
    const skipped = await createFlow('Skips one', [
      { kind: 'moveToWaypoint', id: 'gone', waypointId: 7, onError: { policy: 'skip' } },
      { kind: 'moveToWaypoint', id: 'home', waypointId: 2 },
    ]);
    const broken = await createFlow('Fails', [
      { kind: 'taskStart', id: 't', name: 'Check' },
      { kind: 'moveToWaypoint', id: 'nowhere', waypointId: 6 },
      { kind: 'taskComplete', id: 'end' },
    ]);
    // The map changes under the flows: Patrol 4 and 5 (6, 7) are gone when they run.
    const doc = demoMapDocument();
    const current = await t.call('GET', `/floors/${floorId}/map`, admin);
    const saved = await t.call('PUT', `/floors/${floorId}/map`, admin, {
      baseRevision: current.json<{ revision: number }>().revision,
      document: {
        ...doc,
        waypoints: doc.waypoints.filter((w) => w.id < 6),
        edges: doc.edges.filter((e) => e.from < 6 && e.to < 6),
        routes: [{ ...doc.routes[0]!, waypointIds: [3, 4, 5] }],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const r1 = await reportOf((await start(skipped)).id);
    expect(r1).toMatchObject({ result: 11, errorCode: null, abnormalCount: 0 });
    expect((await detailOf(r1.id)).details.map((x) => [x.stepId, x.result, x.errorCode])).toEqual([
      ['gone', 11, 'RUN_NO_PATH'],
      ['home', 10, null],
    ]);
    await idle();
    const r2 = await reportOf((await start(broken)).id);
    // A move is tried three times by default: each attempt is a detail.
    expect(r2).toMatchObject({ result: 9, errorCode: 'RUN_NO_PATH', abnormalCount: 3, detailCount: 4 });
    const d2 = await detailOf(r2.id);
    expect(d2.details.map((x) => [x.stepId, x.type, x.result, x.errorCode])).toEqual([
      ['t', 11, 10, null],
      ['nowhere', 0, 9, 'RUN_NO_PATH'],
      ['nowhere', 0, 9, 'RUN_NO_PATH'],
      ['nowhere', 0, 9, 'RUN_NO_PATH'],
    ]);
    expect(d2.details[1]!.message).toBeTruthy();

    // The list's filters: result, abnormal, robot, type, flow name, start time.
    const ids = async (where: unknown, auth = admin) => {
      const res = await t.call('GET', q(where), auth);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Report[]>().map((x) => x.id);
    };
    expect(await ids({ result: 9 })).toEqual([r2.id]);
    expect(await ids({ abnormal: true })).toEqual([r2.id]);
    expect(await ids({ abnormal: false, robotId })).not.toContain(r2.id);
    expect(await ids({ flowName: { like: '%skips%' } })).toEqual([r1.id]);
    expect(await ids({ type: 1 })).toHaveLength(1);
    expect(await ids({ robotId, startedAt: { gte: r1.startedAt } })).toEqual([r2.id, r1.id]);
    expect(await ids({ robotId, startedAt: { lt: r1.startedAt } })).not.toContain(r1.id);
    expect(await ids({ buildingId, floorId })).toEqual(expect.arrayContaining([r1.id, r2.id]));
    // Newest first.
    const all = (await t.call('GET', '/reports', admin)).json<Report[]>();
    expect(all.map((x) => x.startedAt)).toEqual([...all.map((x) => x.startedAt)].sort().reverse());
  }, 120_000);

  it('writes the report of a run closed as unknown after a restart exactly once', async () => {
    await idle();
    const repo = runRepo(t.db.kysely);
    const past = new Date(Date.now() - 1_000).toISOString();
    const id = await repo.insert({
      organization_id: organizationId,
      building_id: buildingId,
      floor_id: floorId,
      flow_id: null,
      flow_name: 'Left behind',
      robot_id: robotId,
      robot_name: 'Reporter',
      definition: JSON.stringify([{ kind: 'moveToWaypoint', id: 'far', waypointId: 5 }]),
      status: 'running',
      started_at: past,
      ended_at: null,
      started_by: null,
      current_step_id: 'far',
      current_step_kind: 'moveToWaypoint',
      error_code: null,
      message: null,
      cursor: JSON.stringify({
        ...initialCursor(floorId),
        frames: [{ index: 0, pass: 0 }],
        seq: 1,
        order: {
          orderId: 'gone',
          updateId: 0,
          last: { nodeId: 'wp-5', seq: 4, x: 18, y: 10, mapId: `floor-${floorId}` },
        },
        wait: { kind: 'node', orderId: 'gone', seq: 4 },
      }),
      owner: 'dead-server',
      lease_until: past,
    });
    await repo.insertStep({
      run_id: id,
      seq: 1,
      step_id: 'far',
      kind: 'moveToWaypoint',
      pass: '',
      attempt: 1,
      result: 'running',
      started_at: past,
      ended_at: null,
      error_code: null,
      message: null,
      data: '{}',
    });
    // Another server (its clock a minute ahead, so the lease has run out) finds the run and closes it.
    const log = { error: () => undefined, warn: () => undefined, info: () => undefined };
    const maps = mapService({
      config: t.config,
      db: t.db.kysely,
      dialect: t.db.dialect,
      clock: () => new Date(),
      audit: { record: async () => undefined },
      robotLink: t.link,
      log,
    } as never);
    const writer = writerOf();
    const other = createRunner({
      db: t.db.kysely,
      clock: () => new Date(Date.now() + 60_000),
      robotLink: t.link,
      log,
      outbound: createOutbound(),
      activity: activityService({ db: t.db.kysely, clock: () => new Date(), robotLink: t.link }),
      mapOf: (f: number) => maps.current(f),
      recoveryGraceMs: 0,
      reports: writer,
    });
    try {
      await other.heartbeat();
      const report = await reportOf(id);
      expect(report).toMatchObject({
        result: 9,
        errorCode: 'RUN_SERVER_RESTART',
        caller: 'trigger',
        callerName: null,
        flowName: 'Left behind',
        type: 0,
      });
      const d = await detailOf(report.id);
      expect(d.details.map((x) => [x.stepId, x.result])).toEqual([['far', 9]]);
      // Asked again (the same server, the sweep after a restart): still one report.
      await writer.idle();
      expect(await writer.write(id)).toBe(false);
      await writer.sweep();
      expect(await reportCount(id)).toBe(1);
    } finally {
      await other.close();
    }
  }, 60_000);

  it('writes a report the sweep finds missing (a crash between closing the run and writing it), once', async () => {
    const repo = runRepo(t.db.kysely);
    const long = new Date(Date.now() - 3_600_000).toISOString();
    const id = await repo.insert({
      organization_id: organizationId,
      building_id: buildingId,
      floor_id: floorId,
      flow_id: null,
      flow_name: 'Closed before a crash',
      robot_id: robotId,
      robot_name: 'Reporter',
      definition: '[]',
      status: 'done',
      started_at: long,
      ended_at: long,
      started_by: null,
      current_step_id: null,
      current_step_kind: null,
      error_code: null,
      message: null,
      cursor: JSON.stringify(initialCursor(floorId)),
      owner: null,
      lease_until: null,
    });
    // A schedule entry's occurrence started it (the entry itself deleted since: its title stays in the log).
    await t.db.kysely
      .insertInto('schedule_logs')
      .values({
        schedule_id: null,
        organization_id: organizationId,
        building_id: buildingId,
        robot_id: robotId,
        flow_id: null,
        flow_run_id: id,
        title: 'Night round',
        priority: 0,
        due_at: long,
        end_at: long,
        started_at: long,
        ended_at: long,
        result: 'done',
        reason: null,
        detail: '',
        lease_owner: null,
        lease_until: null,
        created_at: long,
      })
      .execute();
    const writer = writerOf();
    expect(await reportCount(id)).toBe(0);
    expect(await writer.sweep()).toBeGreaterThanOrEqual(1);
    expect(await reportCount(id)).toBe(1);
    expect(await writer.sweep()).toBe(0);
    await Promise.all([writer.write(id), writer.write(id)]);
    expect(await reportCount(id)).toBe(1);
    const report = await reportOf(id);
    expect(report).toMatchObject({ result: 10, detailCount: 0, caller: 'schedule', callerName: 'Night round' });
  });

  it('joins the path per floor in the order visited, thinned to the maximum; a missing device is 4', async () => {
    const repo = runRepo(t.db.kysely);
    const at = new Date(Date.now() - 3_600_000).toISOString();
    const id = await repo.insert({
      organization_id: organizationId,
      building_id: buildingId,
      floor_id: floorId,
      flow_id: null,
      flow_name: 'Two floors',
      robot_id: robotId,
      robot_name: 'Reporter',
      definition: '[]',
      status: 'fail',
      started_at: at,
      ended_at: at,
      started_by: null,
      current_step_id: null,
      current_step_kind: null,
      error_code: 'RUN_CAPABILITY',
      message: null,
      cursor: JSON.stringify(initialCursor(floorId)),
      owner: null,
      lease_until: null,
    });
    const upper = floorId + 1000;
    // The first step drove far on the first floor (more points than kept), the second rode up.
    const many = Array.from({ length: 6000 }, (_, i) => [floorId, i, 0]);
    const steps: Array<[string, string, string, string | null, Record<string, unknown>]> = [
      [
        'p1',
        'moveToWaypoint',
        'done',
        null,
        { waypointId: 3, atFloorId: floorId, atX: 5999, atY: 0, track: JSON.stringify(many) },
      ],
      [
        'up',
        'moveToFloor',
        'done',
        null,
        {
          floorId: upper,
          atFloorId: upper,
          atX: 1,
          atY: 2,
          track: JSON.stringify([
            [floorId, 6000, 0],
            [upper, 1, 1],
            [upper, 1, 2],
          ]),
        },
      ],
      ['shot', 'takePhoto', 'fail', 'RUN_CAPABILITY', {}],
    ];
    let seq = 0;
    for (const [stepId, kind, result, code, data] of steps)
      await repo.insertStep({
        run_id: id,
        seq: ++seq,
        step_id: stepId,
        kind,
        pass: '',
        attempt: 1,
        result,
        started_at: at,
        ended_at: at,
        error_code: code,
        message: code ? 'The robot cannot do takePhoto' : null,
        data: JSON.stringify(data),
      });
    expect(await writerOf().write(id, 0)).toBe(true);
    const report = await reportOf(id);
    expect(report).toMatchObject({ result: 9, errorCode: 'RUN_CAPABILITY', abnormalCount: 1 });
    const d = await detailOf(report.id);
    expect(d.details.map((x) => [x.stepId, x.type, x.result, x.floorId, x.x, x.y])).toEqual([
      ['p1', 0, 10, floorId, 5999, 0],
      ['up', 30, 10, upper, 1, 2],
      ['shot', 1, 4, null, null, null],
    ]);
    expect(d.details[1]!.values).toEqual({ floorId: upper });
    expect(d.tracks.map((x) => [x.floorId, x.points.length])).toEqual([
      [floorId, REPORT_TRACK_POINTS_MAX],
      [upper, 2],
    ]);
    const first = d.tracks[0]!.points;
    expect(first[0]).toEqual([0, 0]);
    expect(first.at(-1)).toEqual([6000, 0]);
  });

  it('copies a route’s, a waypoint’s and a floor’s names into the values; a later map edit leaves them', async () => {
    // The floor's map as the tests before left it.
    const current = await t.call('GET', `/floors/${floorId}/map`, admin);
    const map = current.json<{ revision: number; document: ReturnType<typeof demoMapDocument> }>();
    const doc = map.document;
    const route = doc.routes[0]!;
    const last = route.waypointIds[route.waypointIds.length - 1]!;
    const repo = runRepo(t.db.kysely);
    const at = new Date(Date.now() - 3_600_000).toISOString();
    const id = await repo.insert({
      organization_id: organizationId,
      building_id: buildingId,
      floor_id: floorId,
      flow_id: null,
      flow_name: 'Named',
      robot_id: robotId,
      robot_name: 'Reporter',
      definition: JSON.stringify([
        { kind: 'moveToWaypoint', id: 'w', waypointId: 3 },
        { kind: 'followRoute', id: 'r', routeId: route.id },
        { kind: 'moveToFloor', id: 'f', floorId, waypointId: 2 },
        { kind: 'taskStart', id: 't', name: '夜間点検' },
      ]),
      status: 'done',
      started_at: at,
      ended_at: at,
      started_by: null,
      current_step_id: null,
      current_step_kind: null,
      error_code: null,
      message: null,
      cursor: JSON.stringify(initialCursor(floorId)),
      owner: null,
      lease_until: null,
    });
    const steps: Array<[string, string, Record<string, unknown>]> = [
      ['w', 'moveToWaypoint', { waypointId: 3, atFloorId: floorId, atX: 1, atY: 1 }],
      ['r', 'followRoute', { waypointId: last, atFloorId: floorId, atX: 1, atY: 1 }],
      ['f', 'moveToFloor', { floorId, waypointId: 2, phase: 'done' }],
      ['t', 'taskStart', { task: '夜間点検' }],
    ];
    let seq = 0;
    for (const [stepId, kind, data] of steps)
      await repo.insertStep({
        run_id: id,
        seq: ++seq,
        step_id: stepId,
        kind,
        pass: '',
        attempt: 1,
        result: 'done',
        started_at: at,
        ended_at: at,
        error_code: null,
        message: null,
        data: JSON.stringify(data),
      });
    expect(await writerOf().write(id, 0)).toBe(true);
    const report = await reportOf(id);
    const name = (wid: number) => doc.waypoints.find((w) => w.id === wid)!.name;
    const expected = [
      { waypointId: 3, waypointName: name(3) },
      { waypointId: last, waypointName: name(last), routeName: route.name },
      { floorId, floorName: report.floorName, waypointId: 2, waypointName: name(2), phase: 'done' },
      { task: '夜間点検' },
    ];
    expect((await detailOf(report.id)).details.map((x) => x.values)).toEqual(expected);

    // The map renamed later: the past report keeps the names it was written with.
    const renamed = await t.call('PUT', `/floors/${floorId}/map`, admin, {
      baseRevision: map.revision,
      document: { ...map.document, waypoints: map.document.waypoints.map((w) => ({ ...w, name: `${w.name} (old)` })) },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    try {
      expect((await detailOf(report.id)).details.map((x) => x.values)).toEqual(expected);
    } finally {
      const now = (await t.call('GET', `/floors/${floorId}/map`, admin)).json<{ revision: number }>();
      const back = await t.call('PUT', `/floors/${floorId}/map`, admin, {
        baseRevision: now.revision,
        document: map.document,
      });
      expect(back.statusCode, back.body).toBe(200);
    }
  });

  it('keeps general operators to their building and administrators to their organization; 404 out of scope', async () => {
    const mine = (await t.call('GET', q({ robotId }), general)).json<Report[]>();
    expect(mine.length).toBeGreaterThan(0);
    // A report of another building of the organization, and one of another organization.
    const annex = await t.call('POST', '/buildings', admin, {
      name: 'Report Annex',
      prefecture: '',
      city: '',
      address: '',
      postalCode: '',
      latitude: null,
      longitude: null,
      organizationId,
      status: 1,
    });
    expect(annex.statusCode, annex.body).toBe(201);
    const annexId = annex.json<{ id: number }>().id;
    const otherOrg = (
      await t.db.kysely
        .selectFrom('organizations')
        .select('id')
        .where('id', '<>', organizationId)
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id;
    const base = {
      building_name: 'x',
      floor_id: null,
      floor_name: '',
      robot_id: null,
      robot_name: 'Elsewhere',
      robot_serial: 'E-1',
      flow_id: null,
      flow_name: 'Elsewhere round',
      type: 0,
      caller: 'trigger',
      caller_name: null,
      schedule_id: null,
      started_at: '2030-01-01T00:00:00.000Z',
      ended_at: '2030-01-01T00:10:00.000Z',
      result: 10,
      error_code: null,
      abnormal_count: 0,
      photo_count: 0,
      detail_count: 0,
      thumbnail_file_key: null,
    };
    const insert = async (
      values: typeof base & { flow_run_id: number; organization_id: number; building_id: number },
    ) => (await t.db.kysely.insertInto('reports').values(values).returning('id').executeTakeFirstOrThrow()).id;
    const annexReport = await insert({
      ...base,
      flow_run_id: 900_001,
      organization_id: organizationId,
      building_id: annexId,
    });
    const foreign = await insert({ ...base, flow_run_id: 900_002, organization_id: otherOrg, building_id: 999_999 });

    const listed = async (auth: string) =>
      (await t.call('GET', q({ flowName: 'Elsewhere round' }), auth)).json<Report[]>().map((x) => x.id);
    expect(await listed(general)).toEqual([]);
    expect(await listed(admin)).toEqual([annexReport]);
    expect((await listed(sysadmin)).sort()).toEqual([annexReport, foreign].sort());
    expect((await t.call('GET', `/reports/${annexReport}`, general)).statusCode).toBe(404);
    expect((await t.call('GET', `/reports/${foreign}`, admin)).statusCode).toBe(404);
    expect((await t.call('GET', `/reports/${foreign}`, sysadmin)).statusCode).toBe(200);
    expect((await t.call('GET', `/reports/${mine[0]!.id}`, general)).statusCode).toBe(200);
    expect((await t.call('GET', '/reports/123456789', admin)).statusCode).toBe(404);
  });

  it('makes a 4K photo’s thumbnail on the image worker: 320 px wide, the aspect and the colours kept', async () => {
    const w = 3840;
    const h = 2160;
    const rgb = new Uint8Array(w * h * 3);
    // Left half red, right half blue.
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) rgb.set(x < w / 2 ? [255, 0, 0] : [0, 0, 255], (y * w + x) * 3);
    const full = encodeRgbPng(w, h, rgb);
    const before = imageWorkerJobs('thumbnail');
    const t0 = performance.now();
    const thumb = await pngThumbnailOffThread(full, 320);
    const ms = performance.now() - t0;
    expect(imageWorkerJobs('thumbnail')).toBe(before + 1);
    expect({ width: thumb.width, height: thumb.height }).toEqual({ width: 320, height: 180 });
    expect(pngSize(thumb.png)).toEqual({ width: 320, height: 180 });
    expect(thumb.png.length).toBeLessThan(full.length);
    // Back through the decoder at full size: the left pixel red, the right blue.
    const again = await pngThumbnailOffThread(thumb.png, 2);
    expect(pngSize(again.png)).toEqual({ width: 2, height: 1 });
    const idat = again.png.subarray(41, 41 + again.png.readUInt32BE(33));
    expect([...inflateSync(idat)]).toEqual([0, 255, 0, 0, 0, 0, 255]);
    console.log(`4K thumbnail on the worker: ${ms.toFixed(0)} ms`);
    // A gray PNG narrower than the thumbnail keeps its size.
    const gray = await pngThumbnailOffThread(encodeGrayPng(100, 50, new Uint8Array(5000).fill(128)), 320);
    expect({ width: gray.width, height: gray.height }).toEqual({ width: 100, height: 50 });
    await expect(pngThumbnailOffThread(Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 320)).rejects.toThrow(/not a PNG/);
  });

  it('answers a bad filter with a 400, never a 500', async () => {
    for (const filter of [
      'not json',
      JSON.stringify({ where: { abnormal: 'maybe' } }),
      JSON.stringify({ where: { nope: 1 } }),
      JSON.stringify({ where: { result: 'ten' } }),
      JSON.stringify({ where: { startedAt: { gte: 'yesterday' } } }),
      JSON.stringify({ order: 'robotSerial DESC' }),
      JSON.stringify({ fields: ['id'] }),
      JSON.stringify({ where: { or: [{ abnormal: 1 }] } }),
    ]) {
      const res = await t.call('GET', `/reports?filter=${encodeURIComponent(filter)}`, admin);
      expect(res.statusCode, `${filter}: ${res.body}`).toBe(400);
      expect(errorOf(res).code).toBe('BAD_FILTER');
    }
    expect((await t.call('GET', '/reports/abc', admin)).statusCode).toBe(400);
    // A flow's reportType is 0, 1 or 30.
    const bad = await t.call('POST', '/flows', admin, {
      name: 'Bad type',
      description: '',
      buildingId,
      floorId,
      flowGroupId: null,
      enabled: true,
      definition: { version: 1, steps: [{ kind: 'wait', id: 'w', seconds: 0 }], reportType: 2 },
    });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(errorOf(bad).details?.map((x) => `${x.path}:${x.message}`)).toEqual([
      'definition.reportType:validation.invalid',
    ]);
  });

  // Last: it moves the app's clock forward.
  it('reports a run a schedule entry started (a flow that ends at once), with the entry’s title as caller', async () => {
    await idle();
    const flowId = await createFlow('Instant', [{ kind: 'wait', id: 'w', seconds: 0 }]);
    const local = (minutes: number) => toZoned(Date.now() + minutes * 60_000, 'Asia/Tokyo');
    const entry = await t.call('POST', '/schedules', admin, {
      title: 'Morning check',
      description: '',
      flowId,
      robotId,
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
    expect(entry.statusCode, entry.body).toBe(201);
    const scheduleId = entry.json<{ id: number }>().id;
    t.advance(3);
    const d = (t.app as unknown as { scheduleDispatcher: ScheduleDispatcher }).scheduleDispatcher;
    await d.tick();
    await d.idle();
    const report = await until(async () => {
      const res = await t.call('GET', q({ scheduleId }), admin);
      return res.json<Report[]>()[0];
    });
    expect(report).toMatchObject({ caller: 'schedule', callerName: 'Morning check', scheduleId, result: 10 });
  }, 60_000);
});
