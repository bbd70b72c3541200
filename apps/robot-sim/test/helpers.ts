import { createServer, type AddressInfo, type Server } from 'node:net';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';

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

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
