/**
 * The simulator process of `npm run bench:flows` (started by bench/flows.ts with an IPC channel; not
 * meant to be run by hand). It runs the simulated robots with @portal/robot-sim and measures the step
 * transitions on the robots' side, one machine clock (performance.now() of this process):
 *
 * - every order or order update a robot receives is seen as it arrives (the MQTT client's `message`
 *   event, before the robot's own handler); it names the base end (the last released node) and the
 *   node actions on it;
 * - every state message a robot publishes is checked (MQTT PUBLISH on `.../state`): the first one in
 *   which the robot stands on that base end (`lastNodeSequenceId`) with all its node actions FINISHED or
 *   FAILED is the message the server's runner reacts to by sending the next move's update;
 * - the next order update's arrival − that publish is one transition latency. It covers the robot →
 *   broker → server hop, the runner's work (step records, cursor, planning) and the server → broker →
 *   robot hop: a conservative figure for "node reached → next update on the wire".
 *
 * Photos: every robot publishes the same still (rendered once at start) instead of rendering its
 * camera's view per photo (~0.4 s of CPU each, which 200 robots in one process could not afford); the
 * server stores each as it would a real one.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { MqttClient } from 'mqtt';
import {
  startFleet,
  stillPng,
  worldFor,
  PHOTO_HEIGHT,
  PHOTO_WIDTH,
  type RobotOptions,
  type SimFleet,
} from '@portal/robot-sim';
import { FrameRenderer } from '@portal/robot-sim/video';
import type { FromFlowSim, ToFlowSim, TransitionReport } from './flows-protocol.ts';

const send = (msg: FromFlowSim) => process.send?.(msg);

/** What one robot's current order asks of it: the base end and that node's actions. */
interface Track {
  orderId: string;
  baseEndSeq: number;
  actionIds: string[];
  /** performance.now() of the first state publish showing the base end done; null: not yet. */
  doneAt: number | null;
  /** The headerId of that state message (bench/flows.ts finds its time at the broker by it). */
  doneHeaderId: number;
}

const tracks = new Map<string, Track>();
let measuring = false;
let report: TransitionReport = emptyReport();
const loopDelay = monitorEventLoopDelay({ resolution: 10 });

function emptyReport(): TransitionReport {
  return {
    latenciesMs: [],
    pairs: [],
    early: 0,
    newOrders: 0,
    updatesPerRobot: {},
    statePublished: 0,
    stateParsed: 0,
    photos: 0,
    connected: 0,
    loopDelayP99Ms: 0,
    loopDelayMaxMs: 0,
  };
}

const prefixOf = (topic: string) => topic.slice(0, topic.lastIndexOf('/'));
const text = (payload: unknown) =>
  typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;

interface OrderMsg {
  orderId: string;
  orderUpdateId: number;
  nodes: Array<{ sequenceId: number; released: boolean; actions?: Array<{ actionId: string }> }>;
}

/** An order (update) arrives at a robot. */
function onOrder(topic: string, payload: unknown, at: number): void {
  const raw = text(payload);
  if (raw === null) return;
  let order: OrderMsg;
  try {
    order = JSON.parse(raw) as OrderMsg;
  } catch {
    return;
  }
  const key = prefixOf(topic);
  const serial = key.slice(key.lastIndexOf('/') + 1);
  const prev = tracks.get(key);
  if (measuring) {
    if (order.orderUpdateId === 0) report.newOrders++;
    else if (prev && prev.orderId === order.orderId) {
      report.updatesPerRobot[serial] = (report.updatesPerRobot[serial] ?? 0) + 1;
      if (prev.doneAt === null) report.early++;
      else {
        report.latenciesMs.push(at - prev.doneAt);
        report.pairs.push([key, prev.doneHeaderId, order.orderId, order.orderUpdateId]);
      }
    }
  }
  let end: OrderMsg['nodes'][number] | undefined;
  for (const n of order.nodes ?? []) if (n.released && (!end || n.sequenceId > end.sequenceId)) end = n;
  if (!end) return;
  tracks.set(key, {
    orderId: order.orderId,
    baseEndSeq: end.sequenceId,
    actionIds: (end.actions ?? []).map((a) => a.actionId),
    doneAt: null,
    doneHeaderId: -1,
  });
}

interface StateMsg {
  headerId: number;
  orderId: string;
  lastNodeSequenceId: number;
  actionStates: Array<{ actionId: string; actionStatus: string }>;
}

/** A robot publishes a state message. */
function onState(topic: string, payload: unknown, at: number): void {
  if (measuring) report.statePublished++;
  const t = tracks.get(prefixOf(topic));
  if (!t || t.doneAt !== null) return;
  const raw = text(payload);
  // Cheap test first: most state messages (driving) are not at the base end.
  if (raw === null) return;
  const needle = `"lastNodeSequenceId":${t.baseEndSeq}`;
  const at0 = raw.indexOf(needle);
  if (at0 < 0) return;
  const next = raw.charCodeAt(at0 + needle.length);
  if (next >= 48 && next <= 57) return; // a longer number
  if (measuring) report.stateParsed++;
  const s = JSON.parse(raw) as StateMsg;
  if (s.orderId !== t.orderId || s.lastNodeSequenceId !== t.baseEndSeq) return;
  for (const id of t.actionIds) {
    const st = s.actionStates.find((a) => a.actionId === id);
    if (!st || (st.actionStatus !== 'FINISHED' && st.actionStatus !== 'FAILED')) return;
  }
  t.doneAt = at;
  t.doneHeaderId = s.headerId;
}

/**
 * Every robot's MQTT client is an mqtt.js MqttClient (the module @portal/robot-sim loads, hoisted in
 * the workspace): its `publish` and its `message` events are those of every robot.
 */
function hookMqtt(): void {
  const proto = MqttClient.prototype as unknown as {
    publish: (topic: string, ...rest: unknown[]) => unknown;
    emit: (event: string | symbol, ...args: unknown[]) => boolean;
  };
  const publish = proto.publish;
  proto.publish = function (this: unknown, topic: string, ...rest: unknown[]) {
    if (topic.endsWith('/state')) onState(topic, rest[0], performance.now());
    else if (measuring && topic.endsWith('/photo')) report.photos++;
    return publish.call(this, topic, ...rest);
  };
  const emit = proto.emit;
  proto.emit = function (this: unknown, event: string | symbol, ...args: unknown[]) {
    if (event === 'message' && typeof args[0] === 'string' && args[0].endsWith('/order')) {
      onOrder(args[0], args[1], performance.now());
    }
    return emit.call(this, event, ...args);
  };
}

/**
 * One still for every photo of a size: the front camera's view of the demo world, rendered once per
 * width asked for (takePhoto's `width`: the start-position check asks for 320).
 */
function still(width = PHOTO_WIDTH): { png: Buffer; width: number; height: number } {
  const rgba = new FrameRenderer(PHOTO_WIDTH, PHOTO_HEIGHT).renderRgba({
    camera: 'v1',
    pose: { x: 6, y: 3, theta: 0 },
    world: worldFor('floor-1'),
    gimbal: { pan: 0, tilt: 0 },
    eyeHeight: 1.2,
    thermal: { colorMap: 'normal', rangeMin: 10, rangeMax: 40 },
    robotName: 'bench',
    now: Date.now(),
  });
  return stillPng(rgba, width);
}

let fleet: SimFleet | null = null;

async function start(msg: Extract<ToFlowSim, { type: 'start' }>): Promise<void> {
  hookMqtt();
  const started = performance.now();
  const stills = new Map<number, ReturnType<typeof still>>();
  const photo = (width = PHOTO_WIDTH) => {
    let s = stills.get(width);
    if (!s) stills.set(width, (s = still(width)));
    return s;
  };
  const options: RobotOptions[] = msg.robots.map((r) => ({
    brokerUrl: r.brokerUrl,
    username: r.username,
    password: r.password,
    manufacturer: r.manufacturer,
    serialNumber: r.serialNumber,
    model: r.model,
    mapId: r.mapId,
    start: { x: r.x, y: r.y, theta: r.theta },
    battery: 100,
    visualizationHz: msg.visualizationHz,
    stateIntervalMs: msg.stateIntervalMs,
    speedScale: msg.speedScale,
    connectTimeoutMs: 60_000,
    photo: (_camera: string, width?: number) => photo(width),
  }));
  fleet = await startFleet(options, { concurrency: msg.concurrency });
  send({ type: 'started', robots: fleet.robots.length, ms: performance.now() - started });
}

function measure(msg: Extract<ToFlowSim, { type: 'measure' }>): void {
  if (msg.on) {
    report = emptyReport();
    loopDelay.reset();
    loopDelay.enable();
    measuring = true;
    return;
  }
  measuring = false;
  loopDelay.disable();
  send({
    type: 'report',
    id: msg.id,
    ...report,
    connected: fleet?.robots.filter((r) => r.connected).length ?? 0,
    loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
    loopDelayMaxMs: loopDelay.max / 1e6,
  });
}

async function stop(): Promise<void> {
  const f = fleet;
  fleet = null;
  // Graceful: each robot says OFFLINE; bounded, the bench stops the server next anyway.
  if (f) await Promise.race([f.stop(), new Promise((r) => setTimeout(r, 10_000))]);
  send({ type: 'stopped' });
  process.exit(0);
}

process.on('message', (msg: ToFlowSim) => {
  const fail = (err: unknown) => send({ type: 'failed', message: (err as Error).message ?? String(err) });
  try {
    if (msg.type === 'start') start(msg).catch(fail);
    else if (msg.type === 'measure') measure(msg);
    else if (msg.type === 'stop') void stop();
  } catch (err) {
    fail(err);
  }
});
// The bench went away (crash, SIGKILL): do not outlive it.
process.on('disconnect', () => process.exit(0));
