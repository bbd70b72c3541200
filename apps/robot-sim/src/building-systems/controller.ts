import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { doorPassRequestSchema, elevatorCallRequestSchema } from '@portal/contract';
import { realClock, TICK_MS, type Clock } from '../ticker.ts';
import { ElevatorBank, type ElevatorFaults, type ElevatorTimings } from './elevator.ts';
import { SecurityDoor, type DoorFaults, type DoorTimings } from './security-door.ts';

export interface BuildingSystemsOptions {
  /** Elevator banks: id and the floor indexes each serves. */
  banks: Array<{ id: string; floors: number[]; cars?: number }>;
  /** Security door ids. */
  doors: string[];
  elevatorTimings?: ElevatorTimings;
  doorTimings?: DoorTimings;
  elevatorFaults?: ElevatorFaults;
  doorFaults?: DoorFaults;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string;
  clock?: Clock;
  random?: () => number;
}

export interface SimBuildingSystems {
  /** Base URL of the HTTP API (docs/building-systems.md), e.g. http://127.0.0.1:41234. */
  url: string;
  banks: Map<string, ElevatorBank>;
  doors: Map<string, SecurityDoor>;
  close(): Promise<void>;
}

const MAX_BODY = 16 * 1024;

/**
 * The elevators and security doors of a simulated building, behind the building-systems HTTP API the
 * portal's adapter speaks (docs/building-systems.md). Time runs on the injected clock, so tests can
 * drive a ride with a `ManualClock`.
 */
export async function startBuildingSystems(
  opts: BuildingSystemsOptions,
  listen: { host?: string; port?: number } = {},
): Promise<SimBuildingSystems> {
  const clock = opts.clock ?? realClock;
  const random = opts.random ?? Math.random;
  const banks = new Map(
    opts.banks.map((b) => [
      b.id,
      new ElevatorBank(b.id, b.floors, b.cars ?? 2, opts.elevatorTimings, opts.elevatorFaults, random),
    ]),
  );
  const doors = new Map(opts.doors.map((id) => [id, new SecurityDoor(id, opts.doorTimings, opts.doorFaults, random)]));
  const stopTicking = clock.every(TICK_MS, () => {
    const now = clock.now();
    for (const b of banks.values()) b.tick(now);
    for (const d of doors.values()) d.tick(now);
  });

  const bankOfRide = (id: string) => [...banks.values()].find((b) => b.status(id) !== null) ?? null;
  const doorOfPass = (id: string) => [...doors.values()].find((d) => d.status(id) !== null) ?? null;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (opts.token && req.headers.authorization !== `Bearer ${opts.token}`) return send(401, { error: 'unauthorized' });
    const url = new URL(req.url ?? '/', 'http://localhost');
    const parts = url.pathname.split('/').filter(Boolean);
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    if (body === INVALID) return send(400, { error: 'invalid JSON body' });

    if (req.method === 'GET' && url.pathname === '/health') {
      return send(200, {
        banks: [...banks.values()].map((b) => ({ id: b.id, floors: b.floors, outOfService: b.outOfService })),
        doors: [...doors.keys()],
      });
    }
    if (parts[0] === 'elevator-calls') {
      if (req.method === 'POST' && parts.length === 1) {
        const parsed = elevatorCallRequestSchema.safeParse(body);
        if (!parsed.success) return send(400, { error: 'invalid call', issues: parsed.error.issues });
        const bank = banks.get(parsed.data.bank);
        if (!bank) return send(404, { error: 'unknown bank' });
        return send(201, bank.call(parsed.data.from, parsed.data.to, parsed.data.rider));
      }
      const id = parts[1] ?? '';
      const bank = bankOfRide(id);
      if (!bank) return send(404, { error: 'unknown ride' });
      if (req.method === 'GET' && parts.length === 2) return send(200, bank.status(id));
      if (req.method === 'POST' && parts.length === 3) {
        const action = parts[2];
        const done =
          action === 'boarded'
            ? bank.boarded(id)
            : action === 'alighted'
              ? bank.alighted(id)
              : action === 'cancel'
                ? bank.cancel(id)
                : action === 'clear-emergency'
                  ? bank.clearEmergency(id)
                  : null;
        if (done === null) return send(404, { error: 'unknown action' });
        return send(done ? 200 : 409, bank.status(id));
      }
    }
    if (parts[0] === 'door-passes') {
      if (req.method === 'POST' && parts.length === 1) {
        const parsed = doorPassRequestSchema.safeParse(body);
        if (!parsed.success) return send(400, { error: 'invalid request', issues: parsed.error.issues });
        const door = doors.get(parsed.data.door);
        if (!door) return send(404, { error: 'unknown door' });
        return send(201, door.request(parsed.data.rider));
      }
      const id = parts[1] ?? '';
      const door = doorOfPass(id);
      if (!door) return send(404, { error: 'unknown passage' });
      if (req.method === 'GET' && parts.length === 2) return send(200, door.status(id));
      if (req.method === 'POST' && parts.length === 3) {
        const action = parts[2];
        const done = action === 'passed' ? door.passed(id) : action === 'cancel' ? door.cancel(id) : null;
        if (done === null) return send(404, { error: 'unknown action' });
        return send(done ? 200 : 409, door.status(id));
      }
    }
    send(404, { error: 'not found' });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(listen.port ?? 0, listen.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${listen.host ?? '127.0.0.1'}:${port}`,
    banks,
    doors,
    close: () =>
      new Promise<void>((resolve) => {
        stopTicking();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const INVALID = Symbol('invalid');

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        resolve(INVALID);
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text === '') return resolve({});
      try {
        resolve(JSON.parse(text));
      } catch {
        resolve(INVALID);
      }
    });
    req.on('error', () => resolve(INVALID));
  });
}
