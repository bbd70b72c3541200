/**
 * The simulator process of `npm run bench:fleet` (started by bench/fleet.ts with an IPC channel;
 * not meant to be run by hand). It runs the simulated fleet with @portal/robot-sim, changes the
 * robots' battery on request so the bench can check that every state change reaches the browsers,
 * and counts every MQTT message the robots publish ("messages in" of the server).
 *
 * A process of its own rather than the bench's: 1,000 MQTT clients publishing 5,000 messages a
 * second would otherwise share one event loop with the WebSocket clients that timestamp arrivals,
 * and its CPU time could not be told apart from theirs.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { MqttClient } from 'mqtt';
import { startFleet, type RobotOptions, type SimFleet, type SimRobot } from '@portal/robot-sim';
import { Histogram, isoParser } from './fleet-measure.ts';
import type { Change, FromSim, SimCounts, SimRobotSpec, ToSim } from './fleet-protocol.ts';

/** How often the battery changes are made (and reported to the bench), ms. */
const CHANGE_TICK_MS = 100;
/** Battery values the bench sets: above the low-battery threshold, so only the charge changes. */
const BATTERY_MIN = 25;
const BATTERY_SPAN = 70;

const send = (msg: FromSim) => process.send?.(msg);

// ---------------------------------------------------------------- counting what the robots publish

const published: SimCounts['published'] = { state: 0, visualization: 0, connection: 0, factsheet: 0, other: 0 };
/**
 * Robot timestamp of a visualization message → its MQTT publish: the simulator's own share of the
 * position latency (a tick stamps all its messages at its start, then publishes them one by one).
 */
let publishDelay = new Histogram();
const parseIso = isoParser();
const TIMESTAMP_KEY = '"timestamp":"';

/**
 * Every robot's MQTT client is an mqtt.js MqttClient (the same module @portal/robot-sim loads, hoisted
 * in the workspace): counting PUBLISH calls on its prototype counts exactly what the robots sent,
 * including the state messages the simulator sends on its own (timer, connection).
 */
function countPublishes(): void {
  const proto = MqttClient.prototype as unknown as { publish: (topic: string, ...rest: unknown[]) => unknown };
  const original = proto.publish;
  proto.publish = function (this: unknown, topic: string, ...rest: unknown[]) {
    const kind = topic.slice(topic.lastIndexOf('/') + 1);
    if (kind === 'state' || kind === 'visualization' || kind === 'connection' || kind === 'factsheet') {
      published[kind]++;
    } else published.other++;
    const payload = rest[0];
    if (kind === 'visualization' && typeof payload === 'string') {
      const at = payload.indexOf(TIMESTAMP_KEY) + TIMESTAMP_KEY.length;
      publishDelay.add(Date.now() - parseIso(payload.slice(at, at + 24)));
    }
    return original.call(this, topic, ...rest);
  };
}

// ---------------------------------------------------------------- the fleet

let fleet: SimFleet | null = null;
let members: Array<{ spec: SimRobotSpec; robot: SimRobot; last: number }> = [];
let changeTimer: NodeJS.Timeout | null = null;
let skipped = 0;
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

async function start(msg: Extract<ToSim, { type: 'start' }>): Promise<void> {
  countPublishes();
  const started = performance.now();
  const options: RobotOptions[] = msg.robots.map((r) => ({
    brokerUrl: r.brokerUrl,
    username: r.username,
    password: r.password,
    manufacturer: r.manufacturer,
    serialNumber: r.serialNumber,
    model: r.model,
    mapId: r.mapId,
    start: { x: r.x, y: r.y, theta: 0 },
    battery: 80,
    visualizationHz: msg.visualizationHz,
    stateIntervalMs: msg.stateIntervalMs,
    connectTimeoutMs: 60_000,
  }));
  fleet = await startFleet(options, { concurrency: msg.concurrency });
  const bySerial = new Map(msg.robots.map((r) => [r.serialNumber, r]));
  members = fleet.robots.map((robot) => ({ spec: bySerial.get(robot.serialNumber)!, robot, last: 80 }));
  send({ type: 'started', robots: members.length, ms: performance.now() - started });
}

/**
 * `perSecond` battery changes a second, spread evenly: the robots are taken in turn (each one every
 * members/perSecond seconds), each set to a new whole percentage different from its last one, so
 * each change is a change of the robot's live state the server must pass on.
 */
function startChanges(perSecond: number): void {
  stopChanges();
  if (perSecond <= 0) return;
  let cursor = 0;
  let due = 0;
  changeTimer = setInterval(() => {
    due += (perSecond * CHANGE_TICK_MS) / 1000;
    const changes: Change[] = [];
    for (; due >= 1; due--) {
      const m = members[cursor++ % members.length]!;
      if (!m.robot.connected) {
        skipped++;
        continue;
      }
      const value =
        BATTERY_MIN + ((m.last - BATTERY_MIN + 1 + Math.floor(Math.random() * (BATTERY_SPAN - 1))) % BATTERY_SPAN);
      m.last = value;
      const setAt = Date.now();
      // Publishes the state message at once (the simulator's "state on change").
      m.robot.setBattery(value);
      changes.push([m.spec.robotId, value, setAt]);
    }
    if (changes.length > 0) send({ type: 'changes', changes });
  }, CHANGE_TICK_MS);
}

function stopChanges(): void {
  if (changeTimer) clearInterval(changeTimer);
  changeTimer = null;
}

function counts(id: number): void {
  send({
    type: 'counts',
    id,
    published: { ...published },
    connected: members.filter((m) => m.robot.connected).length,
    skipped,
    loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
    loopDelayMaxMs: loopDelay.max / 1e6,
    publishDelayP50Ms: publishDelay.percentile(50),
    publishDelayP99Ms: publishDelay.percentile(99),
  });
  loopDelay.reset();
  publishDelay = new Histogram();
}

async function stop(): Promise<void> {
  stopChanges();
  const f = fleet;
  fleet = null;
  // Graceful: each robot says OFFLINE; bounded, the bench stops the server next anyway.
  if (f) await Promise.race([f.stop(), new Promise((r) => setTimeout(r, 10_000))]);
  send({ type: 'stopped' });
  process.exit(0);
}

process.on('message', (msg: ToSim) => {
  const fail = (err: unknown) => send({ type: 'failed', message: (err as Error).message ?? String(err) });
  try {
    if (msg.type === 'start') start(msg).catch(fail);
    else if (msg.type === 'changes') startChanges(msg.perSecond);
    else if (msg.type === 'counts') counts(msg.id);
    else if (msg.type === 'stop') void stop();
  } catch (err) {
    fail(err);
  }
});
// The bench went away (crash, SIGKILL): do not outlive it.
process.on('disconnect', () => process.exit(0));
