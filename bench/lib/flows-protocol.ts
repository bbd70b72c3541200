/**
 * The IPC messages between `bench/flows.ts` and its simulator process (`bench/lib/flows-sim.ts`).
 */
import type { KnownRobotModel } from '@portal/contract';

/** One registered robot, as the simulator needs it. */
export interface FlowSimRobotSpec {
  robotId: number;
  brokerUrl: string;
  username: string;
  password: string;
  manufacturer: string;
  serialNumber: string;
  model: KnownRobotModel;
  mapId: string;
  x: number;
  y: number;
  theta: number;
}

/** What the simulator saw of the step transitions while measuring (since `measure` on). */
export interface TransitionReport {
  /**
   * One per order update received (orderUpdateId > 0) whose previous base end the robot had reported
   * done: ms from the publish of that state message to the update's arrival at the robot.
   */
  latenciesMs: number[];
  /**
   * The same transitions named for the broker-side clock (bench/lib/flows-wire-probe.ts): the robot's
   * MQTT topic prefix, the headerId of the state message that showed the node reached with its actions
   * done, and the orderId and orderUpdateId of the update that followed.
   */
  pairs: Array<[prefix: string, stateHeaderId: number, orderId: string, orderUpdateId: number]>;
  /** Order updates that arrived before the robot had reported the previous base end done. */
  early: number;
  /** New orders (orderUpdateId 0) received: a run's first move, or a move after a failure. */
  newOrders: number;
  /** Order updates received per robot (serial number), while measuring. */
  updatesPerRobot: Record<string, number>;
  /** State messages the robots published while measuring (and how many were parsed to check). */
  statePublished: number;
  stateParsed: number;
  /** Photos published while measuring. */
  photos: number;
  connected: number;
  /** Event-loop delay of the simulator process while measuring (ms). */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

export type ToFlowSim =
  | {
      type: 'start';
      robots: FlowSimRobotSpec[];
      visualizationHz: number;
      stateIntervalMs: number;
      speedScale: number;
      concurrency: number;
    }
  /** Start measuring (on) or stop and answer the report (off). */
  | { type: 'measure'; on: true }
  | { type: 'measure'; on: false; id: number }
  | { type: 'stop' };

export type FromFlowSim =
  | { type: 'started'; robots: number; ms: number }
  | ({ type: 'report'; id: number } & TransitionReport)
  | { type: 'stopped' }
  | { type: 'failed'; message: string };
