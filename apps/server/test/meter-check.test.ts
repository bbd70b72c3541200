import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturePhoto, createWorld, gaugeViewpoint } from '@portal/robot-sim';
import { checkItemSchema, thresholdRuleSchema, type CheckItemInput } from '@portal/contract';
import { closeImageWorker } from '../src/lib/image-worker.ts';
import { createOutbound } from '../src/lib/outbound.ts';
import { meterCheck, type MeterCheckDeps } from '../src/modules/meter-reading/meter-check.ts';
import { meterReaders } from '../src/modules/meter-reading/readers.ts';
import { notifyEvent } from '../src/modules/notifications/notification-engine.ts';
import { createAudit } from '../src/services/audit.ts';
import { createReadCaches } from '../src/services/read-cache.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * The meter check (docs/meter-reading.md): a simulator photo read by the item's reader, the value
 * judged by the item's threshold rule; a breach is a threshold log line and, for an alerting item,
 * a thresholdBreach notification at the rule's level whose targets the line records.
 */
let t: TestApp;
let deps: MeterCheckDeps;
let orgAdmin = '';
let buildingId: number;
let floorId: number;
let organizationId: number;

const world = createWorld(
  'check',
  { x0: -3, y0: -3, x1: 3, y1: 3 },
  [{ x0: -3, y0: -3, x1: 3, y1: -2.8 }],
  [],
  [{ id: 'A', qr: 'GAUGE-31', x: 0, y: -2.79, facing: Math.PI / 2 }],
);
function photo(value: number): Buffer {
  world.gauges![0]!.value = value;
  return capturePhoto({
    camera: 'v1',
    pose: gaugeViewpoint(world.gauges![0]!, 1),
    world,
    gimbal: { pan: 0, tilt: 0 },
    eyeHeight: 1.2,
    thermal: { colorMap: 'normal', rangeMin: 15, rangeMax: 45 },
    robotName: 'sim',
    now: 0,
  }).png;
}

beforeAll(async () => {
  t = await createTestApp();
  const clock = () => new Date();
  orgAdmin = (await t.as('orgadmin@demo.example')).authorization;
  const floor = await t.db.kysely
    .selectFrom('floors')
    .innerJoin('buildings', 'buildings.id', 'floors.building_id')
    .select(['floors.id as floorId', 'buildings.id as buildingId', 'buildings.organization_id as organizationId'])
    .orderBy('floors.id')
    .executeTakeFirstOrThrow();
  ({ floorId, buildingId, organizationId } = floor);
  deps = {
    ctx: {
      db: t.db.kysely,
      clock,
      audit: createAudit(t.db.kysely, clock),
      caches: createReadCaches(t.db.dataVersion, false, clock),
      config: t.config,
    },
    readerFor: meterReaders({
      db: t.db.kysely,
      outbound: createOutbound(),
      secretKey: t.config.secretKey,
      baseUrl: t.config.hakaruAiUrl,
    }),
    notify: (e) => notifyEvent({ db: t.db.kysely, clock, config: t.config }, e),
  };
});

afterAll(async () => {
  await t.close();
  await closeImageWorker();
});

async function item(over: Partial<CheckItemInput>): Promise<number> {
  const rule = await t.call('POST', '/threshold-rules', orgAdmin, {
    name: `Gauge 31 rule ${Math.random()}`,
    description: '',
    level: 9,
    status: 1,
    conditions: [{ judgment: 'range', target: null, min: 20, max: 80 }],
  });
  expect(rule.statusCode, rule.body).toBe(201);
  const res = await t.call('POST', '/check-items', orgAdmin, {
    name: `Gauge 31 ${Math.random()}`,
    buildingId,
    floorId,
    type: 'meter',
    status: 1,
    meterType: 'analog',
    readingService: 'builtin',
    qrCodeNumber: 'GAUGE-31',
    taskId: '',
    deviceId: '',
    alerting: true,
    thresholdRuleId: thresholdRuleSchema.parse(rule.json()).id,
    x: 0,
    y: -1.79,
    z: 1.2,
    direction: -Math.PI / 2,
    markerType: 'qr',
    areaDetectionMarker: false,
    definition: '{"min":0,"max":100}',
    ...over,
  } satisfies CheckItemInput);
  expect(res.statusCode, res.body).toBe(201);
  return checkItemSchema.parse(res.json()).id;
}

const logsOf = (checkItemId: number) =>
  t.db.kysely.selectFrom('threshold_logs').selectAll().where('check_item_id', '=', checkItemId).execute();
const breachEvents = () =>
  t.db.kysely.selectFrom('notification_events').selectAll().where('kind', '=', 'thresholdBreach').execute();

describe('meter check', () => {
  it('a value within the rule: read, no log line, no notification', async () => {
    const id = await item({});
    const before = (await breachEvents()).length;
    const r = await meterCheck(deps, { checkItemId: id, robotId: null, photo: photo(50), photoFileKey: null });
    expect(r).toMatchObject({ checkItemId: id, ok: true, qr: 'GAUGE-31', breachLogId: null, errorCode: null });
    expect(Math.abs(r!.value! - 50)).toBeLessThanOrEqual(2);
    expect(await logsOf(id)).toHaveLength(0);
    expect(await breachEvents()).toHaveLength(before);
  });

  it('a value out of range: a threshold log line with value and photo, and an emergency notification', async () => {
    const id = await item({});
    const before = (await breachEvents()).length;
    const r = await meterCheck(deps, { checkItemId: id, robotId: null, photo: photo(93), photoFileKey: 'photo-key-1' });
    expect(r).toMatchObject({ ok: true, breachLevel: 9 });
    const logs = await logsOf(id);
    expect(logs).toHaveLength(1);
    expect(logs[0]!.id).toBe(r!.breachLogId);
    expect(Math.abs(Number(logs[0]!.value) - 93)).toBeLessThanOrEqual(2);
    expect(logs[0]!.photo_file_key).toBe('photo-key-1');
    expect(logs[0]!.organization_id).toBe(organizationId);
    const events = await breachEvents();
    expect(events).toHaveLength(before + 1);
    expect(events.at(-1)).toMatchObject({
      level: 9,
      building_id: buildingId,
      dedupe_key: `thresholdBreach:eval:${r!.breachLogId}`,
    });
  });

  it('an item that does not alert: the breach is logged, nobody notified', async () => {
    const id = await item({ alerting: false });
    const before = (await breachEvents()).length;
    const r = await meterCheck(deps, { checkItemId: id, robotId: null, photo: photo(5), photoFileKey: null });
    expect(r!.breachLogId).not.toBeNull();
    expect(await logsOf(id)).toHaveLength(1);
    expect(await breachEvents()).toHaveLength(before);
  });

  it('another QR code: MARKER_NOT_FOUND, nothing judged; a gone item: null', async () => {
    const id = await item({ qrCodeNumber: 'GAUGE-99' });
    const r = await meterCheck(deps, { checkItemId: id, robotId: null, photo: photo(95), photoFileKey: null });
    expect(r).toMatchObject({ ok: false, value: null, errorCode: 'MARKER_NOT_FOUND', breachLogId: null });
    expect(await logsOf(id)).toHaveLength(0);
    expect(
      await meterCheck(deps, { checkItemId: 9_999_999, robotId: null, photo: photo(1), photoFileKey: null }),
    ).toBeNull();
  });
});
