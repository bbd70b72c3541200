import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import addFormats from 'ajv-formats';
import { mappingMessageSchema, vdaSchemas, VDA_VERSIONS, type VdaState, type VdaVersion } from '@portal/contract';
import { RobotCore, type OutTopic, type PublishTopic } from '../src/index.ts';

/**
 * Every message the simulator emits, in both protocol versions, against the official VDA 5050 JSON
 * schemas (packages/contract/vda5050) and the contract's zod schemas. The robot core runs without a broker:
 * its `emit` collects the messages.
 */
const SCHEMA_DIR = path.resolve(import.meta.dirname, '../../../packages/contract/vda5050');

// The root node_modules hoists ajv 6 (ESLint's); ajv-formats carries the ajv 8 it is built for,
// so Ajv2020 is taken from there (it also works once `ajv` is installed next to this package).
type Ajv = Parameters<typeof addFormats>[0];
type ValidateFn = ReturnType<Ajv['compile']>;
const requireFromFormats = createRequire(createRequire(import.meta.url).resolve('ajv-formats'));
const Ajv2020 = (requireFromFormats('ajv/dist/2020') as { default: new (o: object) => Ajv }).default;

const FILES: Record<OutTopic, string> = {
  state: 'state.schema',
  visualization: 'visualization.schema',
  connection: 'connection.schema',
  factsheet: 'factsheet.schema',
};

function loadSchema(version: VdaVersion, topic: OutTopic): Record<string, unknown> {
  let file = path.join(SCHEMA_DIR, version, FILES[topic]);
  if (!existsSync(file) && topic === 'factsheet') file = path.join(SCHEMA_DIR, version, 'factsheet.json');
  const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  if (!schema.properties) {
    // The 2.0.0 factsheet lists its fields at the top level instead of under `properties`, so a
    // validator would ignore them; moved where they belong, they are checked too.
    const keywords = new Set(['$schema', 'title', 'description', 'required', 'subtopic', 'type']);
    const properties: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(schema)) {
      if (keywords.has(k)) continue;
      properties[k] = v;
      delete schema[k];
    }
    schema.properties = properties;
  }
  return schema;
}

function validators(version: VdaVersion): Record<OutTopic, ValidateFn> {
  // strict: false because the official files use non-standard keywords (subtopic, unit).
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return {
    state: ajv.compile(loadSchema(version, 'state')),
    visualization: ajv.compile(loadSchema(version, 'visualization')),
    connection: ajv.compile(loadSchema(version, 'connection')),
    factsheet: ajv.compile(loadSchema(version, 'factsheet')),
  };
}

interface Emitted {
  topic: PublishTopic;
  msg: Record<string, unknown>;
}

/** The VDA 5050 messages (the custom `mapping` topic has no official schema: the contract's zod one). */
const isVda = (e: Emitted): e is Emitted & { topic: OutTopic } => e.topic !== 'mapping';

const header = (serialNumber: string, version: VdaVersion) => ({
  headerId: 1,
  timestamp: new Date().toISOString(),
  version,
  manufacturer: 'sim',
  serialNumber,
});

/** Drives a robot through the situations worth checking and returns everything it emitted. */
function runScenario(version: VdaVersion): Emitted[] {
  const out: Emitted[] = [];
  const serial = `S-${version}`;
  const core = new RobotCore(
    {
      manufacturer: 'sim',
      serialNumber: serial,
      model: 'pro',
      version,
      mapId: 'floor-1',
      start: { x: 0, y: 0, theta: 0 },
      battery: 30,
      visualizationHz: 10,
      stateIntervalMs: 1000,
      chargers: [{ x: 3, y: 0 }],
      speedScale: 10,
      actionTypes: ['speak'],
    },
    (topic, payload) => out.push({ topic, msg: JSON.parse(payload) as Record<string, unknown> }),
  );
  let now = 0;
  const tick = (n = 1) => {
    for (let i = 0; i < n; i++) core.tick((now += 50), new Date().toISOString());
  };
  const until = (pred: (s: VdaState) => boolean, max = 400) => {
    for (let i = 0; i < max && !pred(core.state()); i++) tick();
    expect(pred(core.state())).toBe(true);
  };
  const instant = (
    actionType: string,
    actionId: string,
    actionParameters?: Array<{ key: string; value: string | number | boolean }>,
  ) =>
    core.handleInstantActions(
      JSON.stringify({
        ...header(serial, version),
        actions: [{ actionType, actionId, blockingType: 'NONE', ...(actionParameters ? { actionParameters } : {}) }],
      }),
    );

  out.push({
    topic: 'connection',
    msg: JSON.parse(core.connectionPayload('CONNECTIONBROKEN')) as Record<string, unknown>,
  });
  core.publishConnection('ONLINE');
  core.publishFactsheet();
  core.publishState(); // idle
  tick(3);
  // Map creation while the order below runs: startMapping stays RUNNING in actionStates throughout.
  instant('startMapping', 'm0', [{ key: 'mapId', value: 'floor-9' }]); // not the current map: FAILED
  instant('stopMapping', 'm1'); // not mapping: FAILED
  instant('startMapping', 'm2', [
    { key: 'mapId', value: 'floor-1' },
    { key: 'resolution', value: 0.1 },
  ]);
  tick(2);

  const pos = (x: number, theta?: number) => ({ x, y: 0, mapId: 'floor-1', ...(theta === undefined ? {} : { theta }) });
  core.handleOrder(
    JSON.stringify({
      ...header(serial, version),
      orderId: 'o1',
      orderUpdateId: 0,
      nodes: [
        { nodeId: 'n1', sequenceId: 0, released: true, nodePosition: pos(0, 0), actions: [] },
        {
          nodeId: 'n2',
          sequenceId: 2,
          released: true,
          nodePosition: pos(1.5),
          actions: [
            { actionId: 'a1', actionType: 'speak', blockingType: 'HARD', actionDescription: 'hello' },
            { actionId: 'a2', actionType: 'unknownThing', blockingType: 'NONE' },
          ],
        },
        { nodeId: 'n3', sequenceId: 4, released: true, nodePosition: pos(3, 1.2), actions: [] },
        { nodeId: 'n4', sequenceId: 6, released: false, nodePosition: pos(4), actions: [] },
      ],
      edges: [
        {
          edgeId: 'e1',
          sequenceId: 1,
          released: true,
          startNodeId: 'n1',
          endNodeId: 'n2',
          maxSpeed: 0.5,
          actions: [{ actionId: 'a3', actionType: 'drop', blockingType: 'NONE' }],
        },
        { edgeId: 'e2', sequenceId: 3, released: true, startNodeId: 'n2', endNodeId: 'n3', actions: [] },
        { edgeId: 'e3', sequenceId: 5, released: false, startNodeId: 'n3', endNodeId: 'n4', actions: [] },
      ],
    }),
  );
  until((s) => s.driving);
  instant('pauseMapping', 'm3');
  tick(2);
  instant('resumeMapping', 'm4');
  instant('startPause', 'i1');
  tick(3);
  instant('stopPause', 'i2');
  until((s) => s.driving);
  core.injectFault('emergencyStop');
  core.injectFault('obstacle');
  core.injectFault('hardwareError');
  core.injectFault('motorTemperatureHigh');
  tick(2);
  for (const f of ['emergencyStop', 'obstacle', 'hardwareError', 'motorTemperatureHigh'] as const) core.clearFault(f);
  core.handleOrder('{not json');
  core.handleOrder(JSON.stringify({ ...header(serial, version), orderId: 'bad' }));
  instant('factsheetRequest', 'i3');
  instant('stateRequest', 'i4');
  // End of the base (n3, on the charger) with the horizon waiting.
  until(
    (s) =>
      s.lastNodeId === 'n3' &&
      !s.driving &&
      s.actionStates.every((a) => a.actionStatus !== 'RUNNING' || a.actionType === 'startMapping'),
  );
  instant('cancelOrder', 'i5');
  until((s) => s.batteryState.charging);
  tick(40);
  instant('cancelOrder', 'i6'); // nothing to cancel: FAILED + noOrderToCancel
  core.injectFault('lowBattery');
  tick(2);
  instant('stopMapping', 'm5', [{ key: 'save', value: true }]);
  tick(2);
  core.publishConnection('OFFLINE');
  return out;
}

describe('simulator messages against the official VDA 5050 schemas', () => {
  describe.each(VDA_VERSIONS)('version %s', (version) => {
    const emitted = runScenario(version);
    const validate = validators(version);

    it('covers every topic and situation', () => {
      const states = emitted.filter((e) => e.topic === 'state').map((e) => e.msg as VdaState);
      expect(states.some((s) => s.nodeStates.length === 0 && !s.driving && s.orderId === '')).toBe(true); // idle
      expect(states.some((s) => s.driving && s.nodeStates.length > 0)).toBe(true);
      expect(states.some((s) => s.paused === true)).toBe(true);
      expect(states.some((s) => s.safetyState.eStop === 'MANUAL' && s.errors.length >= 4)).toBe(true);
      expect(states.some((s) => s.batteryState.charging)).toBe(true);
      expect(states.some((s) => s.newBaseRequest === true)).toBe(true);
      expect(states.some((s) => s.nodeStates.some((n) => n.nodePosition))).toBe(true);
      expect(states.some((s) => s.errors.some((e) => e.errorType === 'validationError'))).toBe(true);
      expect(states.some((s) => s.errors.some((e) => e.errorType === 'noOrderToCancel'))).toBe(true);
      expect(states.some((s) => s.errors.some((e) => e.errorType === 'lowBattery'))).toBe(true);
      const statuses = new Set(states.flatMap((s) => s.actionStates.map((a) => a.actionStatus)));
      expect([...statuses].sort()).toEqual(['FAILED', 'FINISHED', 'RUNNING', 'WAITING']);
      const conn = emitted.filter((e) => e.topic === 'connection').map((e) => e.msg.connectionState);
      expect(conn).toEqual(['CONNECTIONBROKEN', 'ONLINE', 'OFFLINE']);
      expect(emitted.filter((e) => e.topic === 'factsheet')).toHaveLength(2);
      expect(emitted.filter((e) => e.topic === 'visualization').length).toBeGreaterThan(10);
      expect(emitted.every((e) => e.msg.version === version)).toBe(true);
    });

    it('covers map creation: states with startMapping RUNNING, failed mapping actions, mapping messages', () => {
      const states = emitted.filter((e) => e.topic === 'state').map((e) => e.msg as VdaState);
      const status = (s: VdaState, id: string) => s.actionStates.find((a) => a.actionId === id)?.actionStatus;
      expect(states.some((s) => status(s, 'm2') === 'RUNNING' && s.driving)).toBe(true);
      expect(states.some((s) => status(s, 'm2') === 'RUNNING' && s.batteryState.charging)).toBe(true); // after cancelOrder
      expect(states.some((s) => status(s, 'm0') === 'FAILED' && status(s, 'm1') === 'FAILED')).toBe(true);
      expect(states.at(-1)!.actionStates.find((a) => a.actionId === 'm2')?.actionStatus).toBe('FINISHED');
      const mapping = emitted.filter((e) => e.topic === 'mapping');
      expect(mapping.map((e) => e.msg.state)).toEqual(
        expect.arrayContaining(['RECORDING', 'PAUSED', 'FINISHED']) as unknown as string[],
      );
      expect(mapping.at(-1)!.msg.state).toBe('FINISHED');
      for (const e of mapping) expect(mappingMessageSchema.safeParse(e.msg).success).toBe(true);
    });

    it('has validators that do reject broken messages', () => {
      const state = emitted.find((e) => e.topic === 'state')!.msg;
      expect(validate.state({ ...state, timestamp: 'yesterday' })).toBe(false);
      expect(validate.state({ ...state, safetyState: { eStop: 'SOMETIMES', fieldViolation: false } })).toBe(false);
      const fs = emitted.find((e) => e.topic === 'factsheet')!.msg as { typeSpecification: object };
      expect(validate.factsheet({ ...fs, typeSpecification: { ...fs.typeSpecification, agvKinematic: 'HOVER' } })).toBe(
        false,
      );
    });

    it('conforms to the official JSON schemas', () => {
      const failures = emitted
        .filter(isVda)
        .map((e) => ({ e, ok: validate[e.topic](e.msg), errors: validate[e.topic].errors }))
        .filter((r) => !r.ok)
        .slice(0, 3)
        .map((r) => ({ topic: r.e.topic, errors: r.errors, msg: r.e.msg }));
      expect(failures).toEqual([]);
    });

    it('is accepted by the contract zod schemas', () => {
      const failures = emitted
        .filter(isVda)
        .map((e) => ({ e, r: vdaSchemas[e.topic].safeParse(e.msg) }))
        .filter(({ r }) => !r.success)
        .slice(0, 3)
        .map(({ e, r }) => ({ topic: e.topic, issues: r.error?.issues }));
      expect(failures).toEqual([]);
    });

    it('uses ISO-8601 UTC timestamps and per-topic headerIds', () => {
      for (const e of emitted) expect(e.msg.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      for (const topic of ['state', 'visualization', 'factsheet', 'mapping'] as const) {
        const ids = emitted.filter((e) => e.topic === topic).map((e) => e.msg.headerId as number);
        expect(ids).toEqual(ids.map((_, i) => ids[0]! + i));
      }
    });
  });
});
