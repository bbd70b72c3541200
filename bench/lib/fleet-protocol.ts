/**
 * The IPC messages between `bench/fleet.ts` and its simulator process (`bench/lib/fleet-sim.ts`).
 */
import type { KnownRobotModel } from '@portal/contract';

/** One registered robot, as the simulator needs it. */
export interface SimRobotSpec {
  robotId: number;
  buildingId: number;
  brokerUrl: string;
  username: string;
  password: string;
  manufacturer: string;
  serialNumber: string;
  model: KnownRobotModel;
  mapId: string;
  x: number;
  y: number;
}

/** A state change the simulator made: the robot's battery set to `battery` % at `setAt` (epoch ms). */
export type Change = [robotId: number, battery: number, setAt: number];

/** What the simulator has published so far (MQTT PUBLISH packets by topic) and what it cost. */
export interface SimCounts {
  published: { state: number; visualization: number; connection: number; factsheet: number; other: number };
  connected: number;
  /** Changes skipped because the robot's link was down at that moment. */
  skipped: number;
  /** Event-loop delay of the simulator process since the last `counts` (ms). */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** Robot timestamp of a visualization message → its MQTT publish, since the last `counts` (ms). */
  publishDelayP50Ms: number;
  publishDelayP99Ms: number;
}

export type ToSim =
  | {
      type: 'start';
      robots: SimRobotSpec[];
      visualizationHz: number;
      stateIntervalMs: number;
      concurrency: number;
    }
  /** Start (perSecond > 0) or stop (0) the battery changes. */
  | { type: 'changes'; perSecond: number }
  | { type: 'counts'; id: number }
  | { type: 'stop' };

export type FromSim =
  | { type: 'started'; robots: number; ms: number }
  | { type: 'changes'; changes: Change[] }
  | ({ type: 'counts'; id: number } & SimCounts)
  | { type: 'stopped' }
  | { type: 'failed'; message: string };
