import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setGaugeValue, startRobot, type SimRobot } from '@portal/robot-sim';
import {
  checkItemSchema,
  reportDetailViewSchema,
  reportSchema,
  thresholdRuleSchema,
  type CheckItemInput,
  type FlowRun,
  type Report,
  type ReportDetailView,
} from '@portal/contract';
import { demoMapDocument } from '../src/seed.ts';
import { runRepo } from '../src/modules/flow-runs/run-repo.ts';
import { closeImageWorker } from '../src/lib/image-worker.ts';
import { createTestApp, registerDemoRobot, simOptions, until, type TestApp } from './helpers.ts';

/**
 * A flow's meterCheck step (docs/meter-reading.md, docs/api-flows.md) on a simulated robot: it drives
 * to the check item's place in front of the simulator's gauge G1, takes the photo, has it read and
 * judged; the report has a meter detail with the value and the photo; a breach is a threshold log
 * line and a thresholdBreach notification event, a value in range neither.
 */
describe('flow meterCheck step', () => {
  let t: TestApp;
  let sim: SimRobot;
  let robotId: number;
  let floorId: number;
  let buildingId: number;
  let admin: string;
  let itemId: number;
  let flowId: number;

  const q = (where: unknown) => `/reports?filter=${encodeURIComponent(JSON.stringify({ where }))}`;
  const reportOf = (runId: number) =>
    until(async () => {
      const res = await t.call('GET', q({ flowRunId: runId }), admin);
      expect(res.statusCode, res.body).toBe(200);
      const list = res.json<Report[]>();
      return list.length === 1 ? reportSchema.parse(list[0]) : undefined;
    }, 60_000);
  const detailOf = async (id: number): Promise<ReportDetailView> => {
    const res = await t.call('GET', `/reports/${id}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    return reportDetailViewSchema.parse(res.json());
  };
  const idle = async () => {
    await until(() => !t.link.busy(robotId));
    await until(async () => !(await runRepo(t.db.kysely).activeOfRobot(robotId)));
  };
  const logsOf = () =>
    t.db.kysely.selectFrom('threshold_logs').selectAll().where('check_item_id', '=', itemId).execute();
  const breachEvents = () =>
    t.db.kysely.selectFrom('notification_events').selectAll().where('kind', '=', 'thresholdBreach').execute();

  async function runFlow(id: number) {
    await idle();
    const res = await t.call('POST', `/flows/${id}/runs`, admin, { robotId });
    expect(res.statusCode, res.body).toBe(201);
    const run = res.json<FlowRun>();
    const report = await reportOf(run.id);
    return { run, report, view: await detailOf(report.id) };
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.as('orgadmin@demo.example')).authorization;
    const r = await registerDemoRobot(t, { serialNo: 'MTR-001', name: 'Meter reader', model: 'pro' });
    robotId = r.created.robot.id;
    floorId = r.floorId;
    buildingId = r.buildingId;
    // The simulator's gauges stand on the demo world's floor-1.
    expect(floorId).toBe(1);
    const saved = await t.call('PUT', `/floors/${floorId}/map`, admin, {
      baseRevision: 0,
      document: demoMapDocument(),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    sim = await startRobot(
      simOptions(r.created, {
        model: 'pro',
        mapId: 'floor-1',
        start: { x: 3, y: 1, theta: 0 },
        battery: 90,
        speedScale: 10,
        visualizationHz: 5,
      }),
    );
    await until(() => t.link.details(robotId)?.online && t.link.details(robotId)?.state);

    const rule = await t.call('POST', '/threshold-rules', admin, {
      name: 'Gauge 1 range',
      description: '',
      level: 9,
      status: 1,
      conditions: [{ judgment: 'range', target: null, min: 20, max: 80 }],
    });
    expect(rule.statusCode, rule.body).toBe(201);
    // The item's place is where the robot reads G1 from 1 m (docs/meter-reading.md: 2, -0.79, -π/2).
    const item = await t.call('POST', '/check-items', admin, {
      name: 'Gauge 1',
      buildingId,
      floorId,
      type: 'meter',
      status: 1,
      meterType: 'analog',
      readingService: 'builtin',
      qrCodeNumber: 'GAUGE-1',
      taskId: '',
      deviceId: '',
      alerting: true,
      thresholdRuleId: thresholdRuleSchema.parse(rule.json()).id,
      x: 2,
      y: -0.79,
      z: 1.2,
      direction: -Math.PI / 2,
      markerType: 'qr',
      areaDetectionMarker: false,
      definition: '{"min":0,"max":100,"unit":"kPa"}',
    } satisfies CheckItemInput);
    expect(item.statusCode, item.body).toBe(201);
    itemId = checkItemSchema.parse(item.json()).id;

    const flow = await t.call('POST', '/flows', admin, {
      name: 'Gauge round',
      description: '',
      buildingId,
      floorId,
      flowGroupId: null,
      enabled: true,
      definition: { version: 1, steps: [{ kind: 'meterCheck', id: 'g1', checkItemId: itemId }] },
    });
    expect(flow.statusCode, flow.body).toBe(201);
    flowId = flow.json<{ id: number }>().id;
  });

  afterAll(async () => {
    setGaugeValue('floor-1', 'G1', 50);
    await sim?.stop().catch(() => undefined);
    await t?.close();
    await closeImageWorker();
  });

  it('reads a gauge out of range: a meter detail with the value and photo, a threshold line and a notification', async () => {
    setGaugeValue('floor-1', 'G1', 93);
    const eventsBefore = (await breachEvents()).length;
    const { run, report, view } = await runFlow(flowId);
    expect(report.result).toBe(10);
    const d = view.details.find((x) => x.stepId === 'g1')!;
    expect(d.kind).toBe('meterCheck');
    expect(d.type).toBe(2);
    expect(d.result).toBe(1);
    expect(d.errorCode).toBeNull();
    expect(Math.abs((d.values.value as number) - 93)).toBeLessThanOrEqual(2);
    expect(d.values.unit).toBe('kPa');
    expect(d.values.checkItemName).toBe('Gauge 1');
    expect(d.photo).not.toBeNull();
    expect(d.values.camera).toBe('v1');
    // The robot stood at the item's place.
    expect(Math.abs(d.x! - 2)).toBeLessThan(0.2);
    expect(Math.abs(d.y! - -0.79)).toBeLessThan(0.2);

    const logs = await logsOf();
    expect(logs).toHaveLength(1);
    expect(logs[0]!.robot_id).toBe(robotId);
    expect(logs[0]!.photo_file_key).not.toBeNull();
    expect(Math.abs(Number(logs[0]!.value) - 93)).toBeLessThanOrEqual(2);
    expect((await breachEvents()).length).toBe(eventsBefore + 1);
    expect(run.id).toBeGreaterThan(0);
  });

  it('reads a gauge in range: a normal detail, no threshold line', async () => {
    setGaugeValue('floor-1', 'G1', 50);
    const before = (await logsOf()).length;
    const eventsBefore = (await breachEvents()).length;
    const { view } = await runFlow(flowId);
    const d = view.details.find((x) => x.stepId === 'g1')!;
    expect(d.result).toBe(0);
    expect(Math.abs((d.values.value as number) - 50)).toBeLessThanOrEqual(2);
    expect(d.photo).not.toBeNull();
    expect((await logsOf()).length).toBe(before);
    expect((await breachEvents()).length).toBe(eventsBefore);
  });

  it('fails the step of an item without a place with RUN_CHECK_ITEM_NOT_PLACED', async () => {
    const res = await t.call('POST', '/check-items', admin, {
      name: 'Gauge unplaced',
      buildingId,
      floorId,
      type: 'meter',
      status: 1,
      meterType: 'analog',
      readingService: 'builtin',
      qrCodeNumber: 'GAUGE-9',
      taskId: '',
      deviceId: '',
      alerting: false,
      thresholdRuleId: null,
      x: null,
      y: null,
      z: 0,
      direction: 0,
      markerType: 'qr',
      areaDetectionMarker: false,
      definition: '{}',
    } satisfies CheckItemInput);
    expect(res.statusCode, res.body).toBe(201);
    const unplaced = checkItemSchema.parse(res.json()).id;
    const flow = await t.call('POST', '/flows', admin, {
      name: 'Unplaced check',
      description: '',
      buildingId,
      floorId,
      flowGroupId: null,
      enabled: true,
      definition: {
        version: 1,
        steps: [{ kind: 'meterCheck', id: 'u', checkItemId: unplaced, onError: { policy: 'abort' } }],
      },
    });
    expect(flow.statusCode, flow.body).toBe(201);
    const { view } = await runFlow(flow.json<{ id: number }>().id);
    const d = view.details.find((x) => x.stepId === 'u')!;
    expect(d.result).toBe(9);
    expect(d.errorCode).toBe('RUN_CHECK_ITEM_NOT_PLACED');
    expect(view.result).toBe(9);
  });

  it('refuses a flow naming a check item of another building or floor', async () => {
    const res = await t.call('POST', '/flows', admin, {
      name: 'Unknown item',
      description: '',
      buildingId,
      floorId,
      flowGroupId: null,
      enabled: true,
      definition: { version: 1, steps: [{ kind: 'meterCheck', id: 'x', checkItemId: 9_999_999 }] },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.body).toContain('definition.steps.0.checkItemId');
  });
});
