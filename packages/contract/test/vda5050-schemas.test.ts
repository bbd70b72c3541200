import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { instantActionsSchema, orderSchema, VDA_VERSIONS, type VdaVersion } from '../src/index.ts';

/**
 * Orders and instant actions as the portal sends them, in both protocol versions, against the
 * official VDA 5050 JSON schemas (packages/contract/vda5050) and the contract's zod schemas. (What robots
 * send is checked by apps/robot-sim/test/schemas.test.ts.)
 */
const SCHEMA_DIR = path.resolve(import.meta.dirname, '../vda5050');

type Topic = 'order' | 'instantActions';

function validator(version: VdaVersion, topic: Topic) {
  // strict: false because the official files use non-standard keywords (subtopic, unit).
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // ajv-formats carries its own copy of ajv 8; the instance is compatible at run time.
  addFormats(ajv as unknown as Parameters<typeof addFormats>[0]);
  const schema = JSON.parse(readFileSync(path.join(SCHEMA_DIR, version, `${topic}.schema`), 'utf8')) as object;
  return ajv.compile(schema);
}

const header = (version: VdaVersion, headerId = 1) => ({
  headerId,
  timestamp: '2026-03-01T09:30:00.120Z',
  version,
  manufacturer: 'ugo',
  serialNumber: 'UGO-PRO-0001',
});

/** A flow as an order: three released waypoints, one more in the horizon, a node and an edge action. */
const order = (version: VdaVersion) => ({
  ...header(version),
  orderId: 'flow-12-run-3',
  orderUpdateId: 0,
  nodes: [
    {
      nodeId: 'wp-1',
      sequenceId: 0,
      released: true,
      nodePosition: { x: 1.5, y: 2, theta: 0, mapId: 'floor-3', allowedDeviationTheta: 0.1 },
      actions: [],
    },
    {
      nodeId: 'wp-2',
      sequenceId: 2,
      nodeDescription: 'Reception',
      released: true,
      nodePosition: { x: 6, y: 2, mapId: 'floor-3' },
      actions: [
        {
          actionId: 'act-1',
          actionType: 'speak',
          actionDescription: 'Greeting',
          blockingType: 'HARD',
          actionParameters: [
            { key: 'text', value: 'Welcome' },
            { key: 'volume', value: 0.8 },
            { key: 'repeat', value: false },
            { key: 'languages', value: ['ja', 'en'] },
          ],
        },
      ],
    },
    {
      nodeId: 'wp-3',
      sequenceId: 4,
      released: true,
      nodePosition: { x: 6, y: 8, theta: -3.14159, mapId: 'floor-3' },
      actions: [],
    },
    { nodeId: 'wp-4', sequenceId: 6, released: false, nodePosition: { x: 2, y: 8, mapId: 'floor-3' }, actions: [] },
  ],
  edges: [
    {
      edgeId: 'wp-1--wp-2',
      sequenceId: 1,
      released: true,
      startNodeId: 'wp-1',
      endNodeId: 'wp-2',
      maxSpeed: 0.5,
      actions: [{ actionId: 'act-2', actionType: 'startRecording', blockingType: 'NONE' }],
    },
    { edgeId: 'wp-2--wp-3', sequenceId: 3, released: true, startNodeId: 'wp-2', endNodeId: 'wp-3', actions: [] },
    { edgeId: 'wp-3--wp-4', sequenceId: 5, released: false, startNodeId: 'wp-3', endNodeId: 'wp-4', actions: [] },
  ],
});

/** The update releasing the horizon: it starts at the last base node (stitching). */
const orderUpdate = (version: VdaVersion) => ({
  ...header(version, 2),
  orderId: 'flow-12-run-3',
  orderUpdateId: 1,
  nodes: [
    { nodeId: 'wp-3', sequenceId: 4, released: true, nodePosition: { x: 6, y: 8, mapId: 'floor-3' }, actions: [] },
    { nodeId: 'wp-4', sequenceId: 6, released: true, nodePosition: { x: 2, y: 8, mapId: 'floor-3' }, actions: [] },
  ],
  edges: [{ edgeId: 'wp-3--wp-4', sequenceId: 5, released: true, startNodeId: 'wp-3', endNodeId: 'wp-4', actions: [] }],
});

/** The portal sends `actionName` next to `actionType` in 2.0 (the official 2.0 schema requires it). */
const instantActions = (version: VdaVersion) => ({
  ...header(version, 3),
  actions: (['startPause', 'stopPause', 'cancelOrder', 'stateRequest', 'factsheetRequest'] as const).map((t, i) => ({
    actionId: `ia-${i}`,
    actionType: t,
    ...(version === '2.0.0' ? { actionName: t } : {}),
    blockingType: 'HARD',
  })),
});

describe('portal messages against the official VDA 5050 schemas', () => {
  describe.each(VDA_VERSIONS)('version %s', (version) => {
    const official = { order: validator(version, 'order'), instantActions: validator(version, 'instantActions') };

    it.each([
      ['an order', 'order', order(version)],
      ['an order update', 'order', orderUpdate(version)],
      ['instant actions', 'instantActions', instantActions(version)],
    ] as const)('%s passes the official schema and zod', (_, topic, msg) => {
      const validate = official[topic];
      expect(validate(msg), JSON.stringify(validate.errors)).toBe(true);
      const zod = topic === 'order' ? orderSchema : instantActionsSchema;
      expect(zod.safeParse(msg).success).toBe(true);
    });

    it('official and zod schemas both refuse a broken order', () => {
      const broken = { ...order(version), nodes: undefined };
      expect(official.order(broken)).toBe(false);
      expect(orderSchema.safeParse(broken).success).toBe(false);
      const badTime = { ...order(version), timestamp: 'tomorrow' };
      expect(official.order(badTime)).toBe(false);
    });

    it('theta must lie within [-π, π] (the portal normalizes angles)', () => {
      const o = order(version);
      o.nodes[0]!.nodePosition.theta = 4;
      expect(official.order(o)).toBe(false);
    });
  });

  it('2.0 quirk: instant actions need actionName; 2.1 needs actionType', () => {
    const only = (version: VdaVersion, field: 'actionType' | 'actionName') => ({
      ...header(version),
      actions: [{ actionId: 'x', [field]: 'startPause', blockingType: 'HARD' }],
    });
    expect(validator('2.0.0', 'instantActions')(only('2.0.0', 'actionType'))).toBe(false);
    expect(validator('2.0.0', 'instantActions')(only('2.0.0', 'actionName'))).toBe(true);
    expect(validator('2.1.0', 'instantActions')(only('2.1.0', 'actionName'))).toBe(false);
    // Hence the portal sends both in 2.0, which both versions' schemas and zod accept.
    const both = instantActions('2.0.0');
    expect(validator('2.1.0', 'instantActions')({ ...both, version: '2.1.0' })).toBe(true);
    expect(instantActionsSchema.safeParse(both).success).toBe(true);
  });

  it('2.0 quirk: action parameter values cannot be objects (2.1 allows them)', () => {
    const withObject = (version: VdaVersion) => {
      const o = order(version);
      o.nodes[1]!.actions[0]!.actionParameters.push({ key: 'options', value: { speed: 1 } as never });
      return o;
    };
    expect(validator('2.0.0', 'order')(withObject('2.0.0'))).toBe(false);
    expect(validator('2.1.0', 'order')(withObject('2.1.0'))).toBe(true);
    expect(orderSchema.safeParse(withObject('2.1.0')).success).toBe(true);
  });
});
