import { createServer, type AddressInfo, type Server } from 'node:net';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import type { VdaState } from '@portal/contract';
import { ManualClock, Ticker, TICK_MS, type SimRobot } from '../src/index.ts';

/** An in-process MQTT broker on a free port, as the portal's embedded one (without credentials). */
export async function startBroker(): Promise<{ url: string; close: () => Promise<void> }> {
  const broker = await Aedes.createBroker();
  const server: Server = createServer(broker.handle);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `mqtt://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.close();
        broker.close(() => ok());
      }),
  };
}

export interface Received {
  topic: string;
  /** last topic level: state, connection... */
  kind: string;
  msg: Record<string, unknown>;
  retain: boolean;
}

/** A plain MQTT client playing master control: records every message of the robots it watches. */
export class Master {
  readonly received: Received[] = [];
  private listeners = new Set<() => void>();

  private constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload, packet) => {
      let msg: Record<string, unknown>;
      try {
        msg = JSON.parse(payload.toString()) as Record<string, unknown>;
      } catch {
        msg = { raw: payload.toString() };
      }
      this.received.push({ topic, kind: topic.split('/').pop() ?? '', msg, retain: packet.retain });
      for (const l of this.listeners) l();
    });
  }

  static async connect(url: string, filter = 'uagv/v2/+/+/+'): Promise<Master> {
    const client = await mqtt.connectAsync(url, { protocolVersion: 4, clientId: `master-${Math.random()}` });
    await client.subscribeAsync(filter, { qos: 1 });
    return new Master(client);
  }

  send(manufacturer: string, serial: string, topic: 'order' | 'instantActions', msg: unknown): Promise<unknown> {
    return this.client.publishAsync(`uagv/v2/${manufacturer}/${serial}/${topic}`, JSON.stringify(msg), { qos: 0 });
  }

  /** The first received message (past or future) that matches. */
  waitFor(match: (r: Received) => boolean, timeoutMs = 10_000): Promise<Received> {
    const found = this.received.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const check = () => {
        const r = this.received.find(match);
        if (!r) return;
        this.listeners.delete(check);
        clearTimeout(timer);
        resolve(r);
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`master: no matching message within ${timeoutMs} ms (${this.received.length} received)`));
      }, timeoutMs);
      this.listeners.add(check);
    });
  }

  close(): Promise<void> {
    return this.client.endAsync();
  }
}

let headerId = 0;
export const header = (serialNumber: string, version = '2.1.0', manufacturer = 'sim') => ({
  headerId: ++headerId,
  timestamp: new Date().toISOString(),
  version,
  manufacturer,
  serialNumber,
});

/** An order along points (released base), one node per point, one edge between consecutive ones. */
export function lineOrder(
  serial: string,
  orderId: string,
  points: Array<[number, number]>,
  opts: { mapId?: string; nodeActions?: Record<number, unknown[]>; maxSpeed?: number; releasedNodes?: number } = {},
) {
  const mapId = opts.mapId ?? 'floor-1';
  const released = opts.releasedNodes ?? points.length;
  const nodes = points.map(([x, y], i) => ({
    nodeId: `n${i + 1}`,
    sequenceId: i * 2,
    released: i < released,
    nodePosition: { x, y, mapId },
    actions: opts.nodeActions?.[i] ?? [],
  }));
  const edges = points.slice(1).map((_, i) => ({
    edgeId: `e${i + 1}`,
    sequenceId: i * 2 + 1,
    released: i + 1 < released,
    startNodeId: `n${i + 1}`,
    endNodeId: `n${i + 2}`,
    ...(opts.maxSpeed !== undefined ? { maxSpeed: opts.maxSpeed } : {}),
    actions: [],
  }));
  return { ...header(serial), orderId, orderUpdateId: 0, nodes, edges };
}

export const instant = (serial: string, actions: Array<{ actionType: string; actionId: string }>) => ({
  ...header(serial),
  actions: actions.map((a) => ({ ...a, blockingType: 'HARD' })),
});

/** A tick loop on a clock the test advances by hand (pass `ticker` in the robot's options). */
export function manualTime(): { clock: ManualClock; ticker: Ticker } {
  const clock = new ManualClock();
  return { clock, ticker: new Ticker(clock) };
}

/**
 * Advances a robot's manual clock tick by tick until its state satisfies the predicate (synchronously:
 * the robot's messages are sent on the way); fails after `limitMs` of clock time.
 */
export function advanceUntil(
  clock: ManualClock,
  r: SimRobot,
  predicate: (s: VdaState) => boolean,
  limitMs = 60_000,
): VdaState {
  for (let t = 0; ; t += TICK_MS) {
    const s = r.state();
    if (predicate(s)) return s;
    if (t >= limitMs) {
      const summary = { orderId: s.orderId, lastNodeId: s.lastNodeId, driving: s.driving, paused: s.paused };
      throw new Error(`${r.serialNumber}: not reached within ${limitMs} ms of clock time; ${JSON.stringify(summary)}`);
    }
    clock.advance(TICK_MS);
  }
}

let barrierNo = 0;
/**
 * A barrier: resolves once everything the robot published before has reached the master (the
 * robot's messages travel one connection in order, so its own marker message comes after them).
 */
export async function flush(master: Master, r: SimRobot): Promise<void> {
  const barrier = `barrier-${++barrierNo}`;
  await r.publishRaw('barrier', JSON.stringify({ barrier }));
  await master.waitFor((m) => m.kind === 'barrier' && m.msg.barrier === barrier);
}
