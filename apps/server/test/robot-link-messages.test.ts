import { readFileSync } from 'node:fs';
import path from 'node:path';
import mqtt from 'mqtt';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instantActionsSchema, orderSchema, vdaTopic, type CreatedRobot, type VdaVersion } from '@portal/contract';
import { createTestApp, type TestApp } from './helpers.ts';
import { ORDER_START_DEVIATION_XY, orderMessage, startingAt } from '../src/modules/robot-link/messages.ts';

/**
 * Every message the server's link publishes (orders; pause, resume and cancel instant actions), as
 * a robot receives them, in both protocol versions, against the official VDA 5050 JSON schemas and
 * the contract's zod schemas.
 */
const SCHEMA_DIR = path.resolve(import.meta.dirname, '../../../packages/contract/vda5050');

function validator(version: VdaVersion, topic: 'order' | 'instantActions') {
  // strict: false because the official files use non-standard keywords (subtopic, unit).
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(path.join(SCHEMA_DIR, version, `${topic}.schema`), 'utf8')) as object);
}

describe('messages the server sends to robots conform to the official VDA 5050 schemas', () => {
  let t: TestApp;
  let admin: { authorization: string };
  let buildingId: number;
  let floorId: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.as('orgadmin@demo.example');
    const b = await t.db.kysely
      .selectFrom('buildings')
      .select('id')
      .where('name', '=', 'Demo Tower')
      .executeTakeFirstOrThrow();
    buildingId = b.id;
    floorId = (
      await t.db.kysely.selectFrom('floors').select('id').where('building_id', '=', b.id).executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  for (const version of ['2.0.0', '2.1.0'] as const) {
    it(`orders and instant actions in ${version}`, async () => {
      const serialNo = `MSG-${version.replace(/\./g, '')}`;
      const res = await t.inject({
        method: 'POST',
        url: '/api/robots',
        headers: admin,
        payload: {
          serialNo,
          name: serialNo,
          model: 'pro',
          version: '',
          hardwareRevision: '',
          buildingId,
          floorId,
          groupId: null,
          status: 1,
          longTermRecordingAutoStart: false,
          videoMode: 'medium',
          notes: '',
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      const { robot, credentials: c } = res.json<CreatedRobot>();
      // A bare robot client: it announces itself in `version`, then records what it is sent.
      const client = await mqtt.connectAsync(c.mqttUrl, {
        protocolVersion: 4,
        username: c.username,
        password: c.password,
        clientId: `${c.manufacturer}-${serialNo}`,
      });
      const received: Array<{ topic: string; message: unknown }> = [];
      client.on('message', (topic, payload) => received.push({ topic, message: JSON.parse(payload.toString()) }));
      await client.subscribeAsync([
        vdaTopic(c.manufacturer, serialNo, 'order'),
        vdaTopic(c.manufacturer, serialNo, 'instantActions'),
      ]);
      await client.publishAsync(
        vdaTopic(c.manufacturer, serialNo, 'connection'),
        JSON.stringify({
          headerId: 0,
          timestamp: new Date().toISOString(),
          version,
          manufacturer: c.manufacturer,
          serialNumber: serialNo,
          connectionState: 'ONLINE',
        }),
        { qos: 1 },
      );
      await expect.poll(() => t.link.live({ id: robot.id, status: 1 }).online).toBe(true);

      const mapId = `floor-${floorId}`;
      await t.link.sendOrder(robot.id, [
        { nodeId: 'start', x: 0, y: 0, mapId },
        { nodeId: 'mid', x: 2.5, y: -1.25, theta: 7, mapId },
        { nodeId: 'end', x: 5, y: 0, theta: -1.5, mapId },
      ]);
      for (const command of ['pause', 'resume', 'cancel'] as const) await t.link.command(robot.id, command);
      await expect.poll(() => received.length).toBe(4);
      await client.endAsync();

      const checkOrder = validator(version, 'order');
      const checkActions = validator(version, 'instantActions');
      for (const { topic, message } of received) {
        const isOrder = topic.endsWith('/order');
        const check = isOrder ? checkOrder : checkActions;
        expect(check(message), `${topic}: ${JSON.stringify(check.errors)}`).toBe(true);
        expect((isOrder ? orderSchema : instantActionsSchema).safeParse(message).success).toBe(true);
        expect((message as { version: string }).version).toBe(version);
      }
      const types = received.flatMap(({ message }) =>
        ((message as { actions?: Array<{ actionType: string }> }).actions ?? []).map((a) => a.actionType),
      );
      expect(types).toEqual(['startPause', 'stopPause', 'cancelOrder']);
    });
  }
});

describe('order node positions', () => {
  it('carry theta (the direction of travel, any orientation allowed, when the stop has no heading), as the 2.0.0 schema requires', () => {
    const h = {
      headerId: 0,
      timestamp: '2026-01-02T03:04:05.000Z',
      version: '2.0.0',
      manufacturer: 'ugo',
      serialNumber: 'S-1',
    };
    const order = orderMessage(h, 'o-1', [
      { nodeId: 'a', x: 1, y: 2, mapId: 'm' },
      { nodeId: 'b', x: 3, y: 4, theta: 1.5, mapId: 'm' },
    ]);
    const validate = validator('2.0.0', 'order');
    expect(validate(order), JSON.stringify(validate.errors)).toBe(true);
    expect(order.nodes.map((n) => n.nodePosition?.theta)).toEqual([Math.atan2(2, 2), 1.5]);
    expect(order.nodes.map((n) => n.nodePosition?.allowedDeviationTheta)).toEqual([Math.PI, undefined]);
  });

  it('start where the robot is: a stop at its position comes first when it stands away from the first stop', () => {
    const h = {
      headerId: 0,
      timestamp: '2026-01-02T03:04:05.000Z',
      version: '2.1.0',
      manufacturer: 'ugo',
      serialNumber: 'S-1',
    };
    const stops = [
      { nodeId: 'a', x: 1, y: 2, mapId: 'm' },
      { nodeId: 'b', x: 3, y: 4, mapId: 'm' },
    ];
    // Close enough: the first stop is where the robot stands.
    expect(startingAt(stops, { x: 1.3, y: 2.2, mapId: 'm' }, 'start-1')).toBe(stops);
    // Unknown position, another map: as given (the robot judges).
    expect(startingAt(stops, null, 'start-1')).toBe(stops);
    expect(startingAt(stops, { x: 9, y: 9, mapId: 'other' }, 'start-1')).toBe(stops);
    // Stopped mid-edge, meters away: the order starts at the robot.
    const from = startingAt(stops, { x: 5, y: 2, mapId: 'm' }, 'start-1');
    expect(from.map((s) => s.nodeId)).toEqual(['start-1', 'a', 'b']);
    const order = orderMessage(h, 'o-2', from);
    expect(order.nodes[0]?.nodePosition).toMatchObject({ x: 5, y: 2, allowedDeviationXY: ORDER_START_DEVIATION_XY });
    expect(order.nodes.slice(1).map((n) => n.nodePosition?.allowedDeviationXY)).toEqual([undefined, undefined]);
    expect(order.edges.map((e) => [e.startNodeId, e.endNodeId])).toEqual([
      ['start-1', 'a'],
      ['a', 'b'],
    ]);
    const validate = validator('2.1.0', 'order');
    expect(validate(order), JSON.stringify(validate.errors)).toBe(true);
  });
});
