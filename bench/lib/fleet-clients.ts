/**
 * The browsers of `npm run bench:fleet`: WebSocket clients (the `ws` package) that sign in, subscribe
 * to one building's fleet and timestamp what arrives. Positions are folded into a latency histogram
 * at once; live-state messages are logged (robot, battery, arrival) and matched with the changes the
 * simulator made after the run (see matchChanges), because the simulator's report of a change may
 * reach the bench after the server's message about it.
 */
import WebSocket from 'ws';
import type { WsServerMessage } from '@portal/contract';
import { Histogram, isoParser } from './fleet-measure.ts';
import type { Change } from './fleet-protocol.ts';

/** What all clients received while `measuring` is on. */
export class ClientMeter {
  measuring = false;
  messages = 0;
  bytes = 0;
  poseFrames = 0;
  poses = 0;
  live = 0;
  other = 0;
  /** Robot timestamp of each position → its arrival at a client. */
  readonly poseLatency = new Histogram();
  /** WebSocket ping → pong round trips of the pinging client: how quickly the server's event loop answers. */
  readonly pingRtt = new Histogram();
  readonly parseIso = isoParser();
}

type Waiter = { accept: (m: WsServerMessage) => boolean; resolve: (m: WsServerMessage) => void };

export class FleetClient {
  /** Live-state messages received: robotId, battery, arrival (epoch ms), flat. */
  readonly lives: number[] = [];
  /** The socket closed before the bench closed it. */
  droppedAt: number | null = null;
  readonly errors: string[] = [];
  private socket: WebSocket | null = null;
  private waiter: Waiter | null = null;
  private closing = false;
  private pingSentAt = 0;
  private pingTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly index: number,
    readonly buildingId: number,
    private readonly meter: ClientMeter,
  ) {}

  /** Connects, signs in and subscribes; resolves with the snapshot's robots. */
  async open(url: string, token: string, timeoutMs = 30_000): Promise<Extract<WsServerMessage, { type: 'snapshot' }>> {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    this.socket = socket;
    socket.on('message', (data: Buffer) => this.onMessage(data));
    socket.on('error', (err) => this.errors.push(err.message));
    socket.on('close', (code, reason) => {
      if (!this.closing) {
        this.droppedAt = Date.now();
        this.errors.push(`closed by the server: ${code} ${reason.toString()}`);
      }
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`client ${this.index}: no connection`)), timeoutMs);
      socket.once('open', () => (clearTimeout(timer), resolve()));
      socket.once('error', (err) => (clearTimeout(timer), reject(err)));
    });
    const topic = `fleet:${this.buildingId}`;
    this.sendJson({ type: 'auth', token });
    await this.expect((m) => m.type === 'ready' || m.type === 'error', timeoutMs).then((m) => {
      if (m.type !== 'ready') throw new Error(`client ${this.index}: auth answered ${JSON.stringify(m)}`);
    });
    this.sendJson({ type: 'subscribe', topic });
    const m = await this.expect((x) => (x.type === 'snapshot' && x.topic === topic) || x.type === 'error', timeoutMs);
    if (m.type !== 'snapshot') throw new Error(`client ${this.index}: subscribe answered ${JSON.stringify(m)}`);
    return m;
  }

  /** Pings the server every `everyMs` while the meter is measuring; round trips go to meter.pingRtt. */
  startPinging(everyMs: number): void {
    this.pingTimer = setInterval(() => {
      if (!this.meter.measuring || this.pingSentAt !== 0) return;
      this.pingSentAt = performance.now();
      this.sendJson({ type: 'ping' });
    }, everyMs);
  }

  close(): void {
    this.closing = true;
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.socket?.terminate();
  }

  private sendJson(msg: unknown): void {
    this.socket?.send(JSON.stringify(msg));
  }

  private expect(accept: (m: WsServerMessage) => boolean, timeoutMs: number): Promise<WsServerMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        reject(new Error(`client ${this.index}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiter = {
        accept,
        resolve: (m) => {
          clearTimeout(timer);
          this.waiter = null;
          resolve(m);
        },
      };
    });
  }

  private onMessage(data: Buffer): void {
    // The arrival time first: parsing is the client's cost, not the server's.
    const now = Date.now();
    const meter = this.meter;
    let msg: WsServerMessage;
    try {
      msg = JSON.parse(data.toString('utf8')) as WsServerMessage;
    } catch {
      this.errors.push('a message that is not JSON');
      return;
    }
    const measuring = meter.measuring;
    if (measuring) {
      meter.messages++;
      meter.bytes += data.length;
    }
    switch (msg.type) {
      case 'poses':
        if (!measuring) break;
        meter.poseFrames++;
        meter.poses += msg.poses.length;
        for (const p of msg.poses) meter.poseLatency.add(now - meter.parseIso(p.at));
        break;
      case 'live':
        if (measuring) meter.live++;
        // Logged also outside the window: matchChanges keeps only changes made inside it.
        if (msg.live.battery !== null) this.lives.push(msg.robotId, msg.live.battery, now);
        break;
      case 'pong':
        if (this.pingSentAt !== 0) {
          meter.pingRtt.add(performance.now() - this.pingSentAt);
          this.pingSentAt = 0;
        }
        break;
      default:
        if (measuring) meter.other++;
        if (msg.type === 'error') this.errors.push(`${msg.code}: ${msg.message}`);
    }
    if (this.waiter?.accept(msg)) this.waiter.resolve(msg);
  }
}

export interface ChangeResult {
  /** Deliveries owed: each change × the clients watching that robot's building. */
  expected: number;
  delivered: number;
  lost: number;
  /** Change made (simulator) → live message with that battery at a client. */
  latency: Histogram;
  /** A few lost deliveries, for the report. */
  examples: string[];
}

/**
 * Checks every change against every client watching the robot's building: the client must have
 * received a `live` message for that robot with that battery, after the change and in order (each
 * robot's changes are matched one after the other, so a later change cannot stand in for an earlier one).
 */
export function matchChanges(
  clients: readonly FleetClient[],
  changes: readonly Change[],
  buildingOf: ReadonlyMap<number, number>,
): ChangeResult {
  const result: ChangeResult = { expected: 0, delivered: 0, lost: 0, latency: new Histogram(), examples: [] };
  // Changes per building, per robot, in the order they were made.
  const byBuilding = new Map<number, Map<number, Change[]>>();
  for (const c of [...changes].sort((a, b) => a[2] - b[2])) {
    const b = buildingOf.get(c[0]);
    if (b === undefined) continue;
    const robots = byBuilding.get(b) ?? new Map<number, Change[]>();
    byBuilding.set(b, robots);
    const list = robots.get(c[0]) ?? [];
    robots.set(c[0], list);
    list.push(c);
  }
  for (const client of clients) {
    const robots = byBuilding.get(client.buildingId);
    if (!robots) continue;
    // This client's live messages per robot: [battery, arrival] in arrival order.
    const heard = new Map<number, Array<[number, number]>>();
    for (let i = 0; i < client.lives.length; i += 3) {
      const id = client.lives[i]!;
      const list = heard.get(id) ?? [];
      heard.set(id, list);
      list.push([client.lives[i + 1]!, client.lives[i + 2]!]);
    }
    for (const [robotId, list] of robots) {
      const got = heard.get(robotId) ?? [];
      let cursor = 0;
      for (const [, battery, setAt] of list) {
        result.expected++;
        let found = -1;
        // Same clock in both processes; 1 ms of slack for the millisecond resolution.
        for (let i = cursor; i < got.length; i++) {
          if (got[i]![0] === battery && got[i]![1] >= setAt - 1) {
            found = i;
            break;
          }
        }
        if (found < 0) {
          result.lost++;
          if (result.examples.length < 5) {
            result.examples.push(`client ${client.index}: robot ${robotId} battery ${battery} set at ${setAt}`);
          }
          continue;
        }
        result.delivered++;
        result.latency.add(got[found]![1] - setAt);
        cursor = found + 1;
      }
    }
  }
  return result;
}
