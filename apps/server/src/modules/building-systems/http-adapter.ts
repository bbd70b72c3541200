import {
  doorPassStatusSchema,
  elevatorRideStatusSchema,
  type DoorPassRequest,
  type ElevatorCallRequest,
} from '@portal/contract';
import { z, type ZodType } from 'zod';
import { OutboundError, type Outbound, type OutboundResponse } from '../../lib/outbound.ts';
import { BuildingSystemError, type BuildingSystemsAdapter } from './adapter.ts';

export interface HttpAdapterOptions {
  /** Base URL of the building-systems HTTP API (the building's T-Spider link). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>` when set. */
  token?: string | null;
  /**
   * How it calls out (lib/outbound.ts: address checks, one deadline, bounded answers). Elevator and
   * door controllers are usually on the building's own network: their hosts go on OUTBOUND_ALLOW_HOSTS.
   */
  outbound: Outbound;
}

type Subject = 'elevator' | 'door';
const UNREACHABLE = { elevator: 'A0001', door: 'S0020' } as const;
const LOST = { elevator: 'A0019', door: 'S2404' } as const;

/**
 * The building-systems HTTP API (docs/building-systems.md): JSON over HTTP, one resource per ride
 * (`/elevator-calls`) and per passage (`/door-passes`), polled for its phase. The simulated building
 * (robot-sim `startBuildingSystems`) serves it; a bridge to a vendor's elevator or access-control
 * system implements the same few calls.
 */
/** `GET /health`: the banks (id, floors served) and doors of the building's system. */
const systemsHealthSchema = z.object({
  banks: z.array(z.object({ id: z.string(), floors: z.array(z.number()), outOfService: z.boolean().optional() })),
});

export function httpBuildingSystems(opts: HttpAdapterOptions): BuildingSystemsAdapter {
  const base = opts.baseUrl.replace(/\/+$/, '');

  /**
   * One request. A status it cannot get is a BuildingSystemError: `unreachable` on the first call of
   * a ride or passage, `lost` on the later ones. 409 (the system was not in that phase) answers null.
   */
  async function request<T>(
    subject: Subject,
    first: boolean,
    method: 'GET' | 'POST',
    path: string,
    schema: ZodType<T>,
    body?: unknown,
  ): Promise<T | null> {
    const code = first ? UNREACHABLE[subject] : LOST[subject];
    let res: OutboundResponse;
    try {
      res = await opts.outbound.send(`${base}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      const reason = err instanceof OutboundError ? err.reason : 'network';
      throw new BuildingSystemError(code, `${subject} system not reachable at ${base} (${reason})`);
    }
    if (res.status === 409) return null;
    if (!res.ok || res.truncated) {
      throw new BuildingSystemError(
        res.status === 404 && !first ? LOST[subject] : code,
        `${subject} system answered ${res.status} to ${method} ${path}`,
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(res.body.toString('utf8'));
    } catch {
      throw new BuildingSystemError(code, `${subject} system answered no JSON to ${method} ${path}`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new BuildingSystemError(code, `${subject} system answered an unknown status`);
    return parsed.data;
  }

  const must = <T>(v: T | null, subject: Subject): T => {
    if (v === null) throw new BuildingSystemError(LOST[subject], `${subject} system answered 409 to a status read`);
    return v;
  };
  const ride = (id: string) => `/elevator-calls/${encodeURIComponent(id)}`;
  const pass = (id: string) => `/door-passes/${encodeURIComponent(id)}`;

  return {
    name: `http ${base}`,
    banks: async () => {
      const health = await request('elevator', true, 'GET', '/health', systemsHealthSchema);
      return health?.banks ?? [];
    },
    callElevator: async (req: ElevatorCallRequest) =>
      must(await request('elevator', true, 'POST', '/elevator-calls', elevatorRideStatusSchema, req), 'elevator'),
    rideStatus: async (id) =>
      must(await request('elevator', false, 'GET', ride(id), elevatorRideStatusSchema), 'elevator'),
    boarded: async (id) =>
      (await request('elevator', false, 'POST', `${ride(id)}/boarded`, elevatorRideStatusSchema, {})) !== null,
    alighted: async (id) =>
      (await request('elevator', false, 'POST', `${ride(id)}/alighted`, elevatorRideStatusSchema, {})) !== null,
    cancelRide: async (id) => {
      await request('elevator', false, 'POST', `${ride(id)}/cancel`, elevatorRideStatusSchema, {});
    },
    requestDoor: async (req: DoorPassRequest) =>
      must(await request('door', true, 'POST', '/door-passes', doorPassStatusSchema, req), 'door'),
    passStatus: async (id) => must(await request('door', false, 'GET', pass(id), doorPassStatusSchema), 'door'),
    passed: async (id) =>
      (await request('door', false, 'POST', `${pass(id)}/passed`, doorPassStatusSchema, {})) !== null,
    cancelPass: async (id) => {
      await request('door', false, 'POST', `${pass(id)}/cancel`, doorPassStatusSchema, {});
    },
  };
}
