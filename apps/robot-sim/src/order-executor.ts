import {
  instantActionsSchema,
  orderSchema,
  type ActionState,
  type OrderEdge,
  type OrderNode,
  type VdaAction,
  type VdaError,
  type VdaOrder,
  type VdaState,
  type VdaVersion,
} from '@portal/contract';
import type { Kinematics } from './kinematics.ts';
import { wrap } from './kinematics.ts';
import { nodeStateOf, type StateBody } from './messages.ts';

const DEFAULT_DEVIATION_XY = 0.5; // m: the first node of an order without allowedDeviationXY is reached within this
const ACTION_SECONDS = 0.5; // how long a simulated node/edge action runs
const REJECTION_TTL_MS = 30_000; // rejection errors (validationError...) disappear after this
const MAX_INSTANT_STATES = 20; // instant action states kept in actionStates

/** What the order executor needs from the robot around it. */
export interface ExecutorHost {
  readonly version: VdaVersion;
  /** Node/edge action types the robot executes; others FAIL. */
  readonly known: ReadonlySet<string>;
  readonly kin: Kinematics;
  /** Real ms of the last tick (rejections expire REJECTION_TTL_MS after it). */
  now(): number;
  /** Something the state reports changed. */
  changed(): void;
  /** Action states that outlive orders and cancelOrder: the running startMapping, running feature actions. */
  lasting(): ActionState[];
  /** The instant action state never evicted from actionStates (the running startMapping). */
  pinned(): ActionState | undefined;
  /**
   * A node action of a robot feature (speak, takePhoto...: docs/robot-protocol.md section 6): the
   * features carry it out as the instant action (they set `st` and move it on). False when the type
   * is not one of the features' node actions on this model.
   */
  nodeAction?(a: VdaAction, st: ActionState): boolean;
  /** A feature node action its order gave up (cancelOrder): FAILED with `reason`; false when it runs on. */
  abortAction?(st: ActionState, reason: string): boolean;
}

/** A node action started on a node and not over yet. */
interface Running {
  a: VdaAction;
  st: ActionState;
  /** The node's sequenceId. */
  seq: number;
  /** Simulated seconds when a generic action finishes; null: the robot features end it. */
  until: number | null;
}

interface Rejection {
  error: VdaError;
  until: number; // real ms
}

type OrderFields = Pick<
  StateBody,
  | 'orderId'
  | 'orderUpdateId'
  | 'zoneSetId'
  | 'lastNodeId'
  | 'lastNodeSequenceId'
  | 'newBaseRequest'
  | 'nodeStates'
  | 'edgeStates'
  | 'actionStates'
>;

/**
 * VDA 5050 order execution: accepts, updates (stitching) and rejects orders, drives the robot from
 * node to node along released edges, runs node and edge actions, keeps the action states (instant
 * actions' included) and the rejection errors.
 */
export class OrderExecutor {
  private orderId = '';
  private orderUpdateId = 0;
  private zoneSetId: string | undefined;
  private lastNodeId = '';
  private lastNodeSequenceId = 0;
  /** Nodes still to traverse (the reached node is removed), then edges, sorted by sequenceId. */
  private nodes: OrderNode[] = [];
  private edges: OrderEdge[] = [];
  private nodeStates: VdaState['nodeStates'] = [];
  private edgeStates: VdaState['edgeStates'] = [];
  private actionStates: ActionState[] = [];
  private readonly actionById = new Map<string, ActionState>();
  private instantIds: string[] = [];
  /** Node actions of the reached node not started yet, in order. */
  private nodeQueue: VdaAction[] = [];
  /** The sequenceId of the node whose actions are queued. */
  private queueSeq = -1;
  /** Node actions in progress (HARD and SOFT ones hold the robot on the node, NONE ones do not). */
  private running: Running[] = [];
  private edgeRunning: ActionState[] = [];
  private enteredEdgeSeq: number | null = null;
  /** Heading to turn to on the reached node (its theta). */
  private thetaTarget: number | null = null;
  private rejections: Rejection[] = [];
  private simTime = 0; // s

  constructor(private readonly host: ExecutorHost) {}

  /** The order's part of the state message. */
  fields(): OrderFields {
    return {
      orderId: this.orderId,
      orderUpdateId: this.orderUpdateId,
      zoneSetId: this.zoneSetId,
      lastNodeId: this.lastNodeId,
      lastNodeSequenceId: this.lastNodeSequenceId,
      newBaseRequest: this.newBaseRequest(),
      nodeStates: this.nodeStates,
      edgeStates: this.edgeStates,
      actionStates: this.actionStates,
    };
  }

  rejectionErrors(): VdaError[] {
    return this.rejections.map((r) => r.error);
  }

  /** At the end of the base with a horizon waiting: ask master control for more. */
  private newBaseRequest(): boolean {
    const n = this.nodes;
    return n.length > 0 && !n[n.length - 1]!.released && !n.some((node, i) => i > 0 && node.released);
  }

  /** Nodes left to drive, or node actions holding the robot. */
  active(): boolean {
    return this.nodes.length > 0 || this.busy();
  }

  /**
   * Node actions hold the robot on the node: some still to start, or a HARD or SOFT one running
   * (a NONE one may run on while the robot drives on).
   */
  busy(): boolean {
    return this.nodeQueue.length > 0 || this.running.some((r) => r.a.blockingType !== 'NONE');
  }

  // ------------------------------------------------------------------ time

  /**
   * Advances simulated time by `dt` s: generic node actions whose time is up finish, feature ones
   * the features ended are dropped, and the node's next actions start.
   */
  advance(dt: number): void {
    this.simTime += dt;
    if (this.running.length === 0 && this.nodeQueue.length === 0) return;
    let left = 0;
    for (const r of this.running) {
      if (r.until !== null && this.simTime >= r.until) {
        r.st.actionStatus = 'FINISHED';
        this.host.changed();
      } else if (r.until === null && (r.st.actionStatus === 'FINISHED' || r.st.actionStatus === 'FAILED')) {
        this.host.changed();
      } else this.running[left++] = r;
    }
    this.running.length = left;
    this.pump();
  }

  /**
   * Starts the queued node actions in order, as their blocking types allow (VDA 5050): a HARD one
   * waits until every action of the node has ended and nothing starts beside it; SOFT and NONE ones
   * wait only for a running HARD one and run side by side.
   */
  private pump(): void {
    while (this.nodeQueue.length > 0) {
      const a = this.nodeQueue[0]!;
      const here = this.running.filter((r) => r.seq === this.queueSeq);
      const wait = a.blockingType === 'HARD' ? here.length > 0 : here.some((r) => r.a.blockingType === 'HARD');
      if (wait) return;
      this.nodeQueue.shift();
      this.startNodeAction(a);
    }
  }

  /** Drops the rejection errors older than their time to live. */
  expireRejections(now: number): void {
    if (this.rejections.length > 0 && this.rejections[0]!.until <= now) {
      this.rejections = this.rejections.filter((r) => r.until > now);
      this.host.changed();
    }
  }

  /** One step of driving the order (the robot is free to move): turn on a node, or drive to the next. */
  drive(dt: number, speedFactor: number): void {
    const kin = this.host.kin;
    if (this.thetaTarget !== null) {
      if (kin.turnToward(this.thetaTarget, dt)) this.thetaTarget = null;
      return;
    }
    const target = this.nodes[0];
    if (!target?.released || !target.nodePosition) return kin.stop();
    const edge = this.edges[0];
    if (edge && edge.endNodeId === target.nodeId) {
      if (!edge.released) return kin.stop();
      if (this.enteredEdgeSeq !== edge.sequenceId) this.enterEdge(edge);
    }
    const p = target.nodePosition;
    if (p.mapId !== kin.mapId) {
      // Another floor: the simulator has no elevators, the robot appears on the node.
      kin.setMap(p.mapId);
      return this.arrive(target);
    }
    const maxSpeed = edge?.endNodeId === target.nodeId ? edge.maxSpeed : undefined;
    if (kin.driveToward(p, maxSpeed, speedFactor, dt)) this.arrive(target);
  }

  private arrive(node: OrderNode): void {
    const kin = this.host.kin;
    const p = node.nodePosition;
    if (p) {
      kin.x = p.x;
      kin.y = p.y;
      if (p.mapId !== kin.mapId) kin.setMap(p.mapId);
      // A node whose orientation may deviate by half a turn or more asks for no turn.
      const free = p.allowedDeviationTheta !== undefined && p.allowedDeviationTheta >= Math.PI;
      if (p.theta !== undefined && !free && Math.abs(wrap(p.theta - kin.theta)) > 1e-3) this.thetaTarget = p.theta;
    }
    kin.v = 0;
    this.lastNodeId = node.nodeId;
    this.lastNodeSequenceId = node.sequenceId;
    if (this.nodes[0] === node) this.nodes.shift();
    const edge = this.edges[0];
    if (edge && edge.sequenceId < node.sequenceId) {
      for (const st of this.edgeRunning) st.actionStatus = 'FINISHED';
      this.edgeRunning = [];
      this.edges.shift();
      this.enteredEdgeSeq = null;
    }
    this.queueSeq = node.sequenceId;
    this.nodeQueue.push(...node.actions);
    this.pump();
    // Held on the node by its actions: standing, not driving.
    if (this.busy()) kin.stop();
    this.refreshRouteStates();
    this.host.changed();
  }

  private enterEdge(edge: OrderEdge): void {
    this.enteredEdgeSeq = edge.sequenceId;
    for (const a of edge.actions) this.startEdgeAction(a);
    this.host.changed();
  }

  /** The action's state, WAITING when it may start (not already over or running). */
  private waitingState(a: VdaAction): ActionState | null {
    const st = this.actionById.get(a.actionId) ?? this.addActionState(a);
    return st.actionStatus === 'WAITING' ? st : null;
  }

  private unknown(st: ActionState, a: VdaAction): void {
    st.actionStatus = 'FAILED';
    st.resultDescription = `Unknown action type '${a.actionType}'`;
  }

  private startEdgeAction(a: VdaAction): void {
    const st = this.waitingState(a);
    if (!st) return;
    if (!this.host.known.has(a.actionType)) return this.unknown(st, a);
    st.actionStatus = 'RUNNING';
    this.edgeRunning.push(st);
  }

  /** One node action: a robot feature's runs as its instant action would; a generic one takes a moment. */
  private startNodeAction(a: VdaAction): void {
    const st = this.waitingState(a);
    if (!st) return;
    this.host.changed();
    if (this.host.nodeAction?.(a, st)) {
      if (st.actionStatus === 'RUNNING' || st.actionStatus === 'WAITING') {
        this.running.push({ a, st, seq: this.queueSeq, until: null });
      }
      return;
    }
    if (!this.host.known.has(a.actionType)) return this.unknown(st, a);
    st.actionStatus = 'RUNNING';
    let seconds = ACTION_SECONDS;
    if (a.actionType === 'wait') {
      const duration = param(a, 'duration');
      if (typeof duration === 'number' && duration >= 0) seconds = duration;
    }
    this.running.push({ a, st, seq: this.queueSeq, until: this.simTime + seconds });
  }

  private addActionState(a: VdaAction): ActionState {
    const st: ActionState = { actionId: a.actionId, actionType: a.actionType, actionStatus: 'WAITING' };
    if (a.actionDescription !== undefined) st.actionDescription = a.actionDescription;
    this.actionStates.push(st);
    this.actionById.set(a.actionId, st);
    return st;
  }

  private refreshRouteStates(): void {
    const v = this.host.version;
    this.nodeStates = this.nodes.map((n) => nodeStateOf(v, n));
    this.edgeStates = this.edges.map((e) => {
      const s: VdaState['edgeStates'][number] = { edgeId: e.edgeId, sequenceId: e.sequenceId, released: e.released };
      if (e.edgeDescription !== undefined) s.edgeDescription = e.edgeDescription;
      return s;
    });
  }

  // ------------------------------------------------------------------ orders

  /** A rejected message: a WARNING error in the state for REJECTION_TTL_MS, referring to the topic. */
  reject(topic: 'order' | 'instantActions', errorType: string, description: string, refs: Record<string, string>) {
    const errorReferences: Array<{ referenceKey: string; referenceValue: string }> = [
      { referenceKey: 'topic', referenceValue: topic },
    ];
    for (const [referenceKey, referenceValue] of Object.entries(refs))
      errorReferences.push({ referenceKey, referenceValue });
    this.rejections.push({
      error: { errorType, errorLevel: 'WARNING', errorDescription: description, errorReferences },
      until: this.host.now() + REJECTION_TTL_MS,
    });
    this.host.changed();
  }

  /** An `order` message (raw payload): accepted, stitched onto the current one, or rejected. */
  order(payload: string | Buffer): void {
    let raw: unknown;
    try {
      raw = JSON.parse(payload.toString());
    } catch {
      return this.reject('order', 'validationError', 'Order is not valid JSON', {});
    }
    const parsed = orderSchema.safeParse(raw);
    const idRef = (o: unknown): Record<string, string> => {
      const id = (o as { orderId?: unknown } | null)?.orderId;
      return typeof id === 'string' ? { orderId: id } : {};
    };
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid';
      return this.reject('order', 'validationError', `Invalid order (${where})`, idRef(raw));
    }
    const order = parsed.data;
    const problem = routeProblem(order);
    if (problem) return this.reject('order', 'validationError', `Invalid order (${problem})`, idRef(order));
    const refs = { orderId: order.orderId, orderUpdateId: String(order.orderUpdateId) };

    if (order.orderId === this.orderId) {
      if (order.orderUpdateId < this.orderUpdateId) {
        return this.reject('order', 'orderUpdateError', 'orderUpdateId lower than the current one', refs);
      }
      if (order.orderUpdateId === this.orderUpdateId) return; // a duplicate: answered with the state
      if (!this.stitches(order)) {
        return this.reject('order', 'orderUpdateError', 'Update does not start at the end of the current base', refs);
      }
      return this.stitch(order, false);
    }
    if (this.active()) {
      if (!this.stitches(order)) {
        return this.reject(
          'order',
          'orderUpdateError',
          'An order is still active and the new one does not extend its base',
          refs,
        );
      }
      return this.stitch(order, true);
    }
    // VDA 5050: a new order starts where the robot is. Its first node must be trivially reachable:
    // the robot stands on it, within the node's allowedDeviationXY (else the robot's own default).
    const first = sortBySeq(order.nodes)[0]!;
    const p = first.nodePosition;
    const kin = this.host.kin;
    if (p && p.mapId !== kin.mapId) {
      return this.reject('order', 'noRouteError', `First node is on map ${p.mapId}`, refs);
    }
    if (!this.onFirstNode(first)) {
      const where = p ? `${Math.hypot(p.x - kin.x, p.y - kin.y).toFixed(2)} m away` : 'not the last node';
      return this.reject('order', 'noRouteError', `First node ${first.nodeId} is not where the robot is (${where})`, {
        ...refs,
        nodeId: first.nodeId,
      });
    }
    this.accept(order);
  }

  /** The order starts with the last node of the current base (or the current node when none remains). */
  private stitches(order: VdaOrder): boolean {
    const first = order.nodes[0]!;
    let lastBase: { nodeId: string; sequenceId: number } = {
      nodeId: this.lastNodeId,
      sequenceId: this.lastNodeSequenceId,
    };
    for (const n of this.nodes) if (n.released) lastBase = n;
    return first.nodeId === lastBase.nodeId && first.sequenceId === lastBase.sequenceId;
  }

  private stitch(order: VdaOrder, newOrder: boolean): void {
    const seq = order.nodes[0]!.sequenceId;
    if (newOrder) {
      // Keep what is still in progress; results of the previous order go.
      this.actionStates = this.actionStates.filter((s) => s.actionStatus === 'WAITING' || s.actionStatus === 'RUNNING');
      this.actionById.clear();
      for (const s of this.actionStates) this.actionById.set(s.actionId, s);
      this.instantIds = [];
      this.rejections = [];
    }
    this.orderId = order.orderId;
    this.orderUpdateId = order.orderUpdateId;
    this.zoneSetId = order.zoneSetId;
    // The stitching node stays as it was; the old horizon is replaced.
    const nodes = sortBySeq(order.nodes).slice(1);
    const edges = sortBySeq(order.edges);
    this.nodes = this.nodes.filter((n) => n.sequenceId <= seq).concat(nodes);
    this.edges = this.edges.filter((e) => e.sequenceId < seq).concat(edges);
    for (const n of nodes) for (const a of n.actions) if (!this.actionById.has(a.actionId)) this.addActionState(a);
    for (const e of edges) for (const a of e.actions) if (!this.actionById.has(a.actionId)) this.addActionState(a);
    this.refreshRouteStates();
    this.host.changed();
  }

  private accept(order: VdaOrder): void {
    this.rejections = [];
    this.actionStates = [];
    this.actionById.clear();
    this.instantIds = [];
    // A running startMapping outlives orders: the portal drives the mapping robot with them.
    // So do the robot features' instant actions still running (speech, recording, OS update).
    for (const m of this.host.lasting()) {
      this.actionStates.push(m);
      this.actionById.set(m.actionId, m);
      this.instantIds.push(m.actionId);
    }
    this.running = [];
    this.nodeQueue = [];
    this.edgeRunning = [];
    this.enteredEdgeSeq = null;
    this.thetaTarget = null;
    this.orderId = order.orderId;
    this.orderUpdateId = order.orderUpdateId;
    this.zoneSetId = order.zoneSetId;
    this.nodes = sortBySeq(order.nodes);
    this.edges = sortBySeq(order.edges);
    for (const n of this.nodes) for (const a of n.actions) this.addActionState(a);
    for (const e of this.edges) for (const a of e.actions) this.addActionState(a);
    // The robot stands on the first node (checked before): it counts as reached.
    this.arrive(this.nodes[0]!);
    this.refreshRouteStates();
    this.host.changed();
  }

  /** The robot stands on the node: within its allowedDeviationXY (or the robot's default), or it is the last node. */
  private onFirstNode(first: OrderNode): boolean {
    const p = first.nodePosition;
    const kin = this.host.kin;
    return p
      ? Math.hypot(p.x - kin.x, p.y - kin.y) <= (p.allowedDeviationXY ?? DEFAULT_DEVIATION_XY)
      : first.nodeId === this.lastNodeId;
  }

  /** cancelOrder: the order's waiting and running actions FAIL, the route is dropped, the robot stops. */
  cancel(): void {
    // The node's feature actions in progress end with the order (a recording step runs on).
    for (const r of this.running) {
      if (r.until === null) this.host.abortAction?.(r.st, 'Order cancelled');
    }
    const lasting = new Set(this.host.lasting());
    for (const s of this.actionStates) {
      if (lasting.has(s)) continue; // mapping, speech, recording and an OS update go on without the order
      if (s.actionStatus === 'WAITING' || s.actionStatus === 'RUNNING') {
        s.actionStatus = 'FAILED';
        s.resultDescription = 'Order cancelled';
      }
    }
    this.nodes = [];
    this.edges = [];
    this.running = [];
    this.nodeQueue = [];
    this.edgeRunning = [];
    this.enteredEdgeSeq = null;
    this.thetaTarget = null;
    this.refreshRouteStates();
    this.host.kin.stop();
  }

  // ------------------------------------------------------------------ instant actions

  /** An `instantActions` message (raw payload): its actions, or null when it was rejected. */
  parseInstantActions(payload: string | Buffer): VdaAction[] | null {
    let raw: unknown;
    try {
      raw = JSON.parse(payload.toString());
    } catch {
      this.reject('instantActions', 'validationError', 'instantActions is not valid JSON', {});
      return null;
    }
    // The official 2.0 schema names the field actionName; 2.1 actionType. Either is understood.
    const actions = (raw as { actions?: unknown } | null)?.actions;
    if (Array.isArray(actions)) {
      for (const a of actions as Array<Record<string, unknown> | null>) {
        if (a && a.actionType === undefined && typeof a.actionName === 'string') a.actionType = a.actionName;
      }
    }
    const parsed = instantActionsSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid';
      this.reject('instantActions', 'validationError', `Invalid instantActions (${where})`, {});
      return null;
    }
    return parsed.data.actions;
  }

  /**
   * The state of an instant action (FINISHED until the caller says otherwise), replacing an earlier
   * one of the same id; the oldest instant states go beyond MAX_INSTANT_STATES.
   */
  recordInstant(a: VdaAction): ActionState {
    const st: ActionState = { actionId: a.actionId, actionType: a.actionType, actionStatus: 'FINISHED' };
    const previous = this.actionById.get(a.actionId);
    if (previous) this.actionStates.splice(this.actionStates.indexOf(previous), 1);
    this.actionStates.push(st);
    this.actionById.set(a.actionId, st);
    this.instantIds.push(a.actionId);
    if (this.instantIds.length > MAX_INSTANT_STATES) {
      // The oldest, unless it is the running startMapping.
      const at = this.instantIds[0] === this.host.pinned()?.actionId ? 1 : 0;
      const old = this.actionById.get(this.instantIds.splice(at, 1)[0]!);
      if (old) {
        this.actionStates.splice(this.actionStates.indexOf(old), 1);
        this.actionById.delete(old.actionId);
      }
    }
    return st;
  }
}

export const param = (a: VdaAction, key: string): unknown => a.actionParameters?.find((p) => p.key === key)?.value;

const sortBySeq = <T extends { sequenceId: number }>(list: readonly T[]): T[] =>
  [...list].sort((a, b) => a.sequenceId - b.sequenceId);

/** Structural checks the JSON schema cannot express; null when the route is drivable. */
export function routeProblem(order: VdaOrder): string | null {
  const nodes = sortBySeq(order.nodes);
  const edges = sortBySeq(order.edges);
  if (edges.length !== nodes.length - 1) return 'edges must link consecutive nodes';
  if (!nodes[0]!.released) return 'the first node must be released';
  let horizon = false;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    if (!n.released) horizon = true;
    else if (horizon) return `released node ${n.nodeId} after the horizon`;
    if (n.released && !n.nodePosition) return `released node ${n.nodeId} has no nodePosition`;
    const e = edges[i];
    if (!e) continue;
    const next = nodes[i + 1]!;
    if (e.startNodeId !== n.nodeId || e.endNodeId !== next.nodeId) return `edge ${e.edgeId} does not link its nodes`;
    if (!(e.sequenceId > n.sequenceId && e.sequenceId < next.sequenceId)) return `edge ${e.edgeId} is out of sequence`;
    if (e.released && !next.released) return `released edge ${e.edgeId} ends in the horizon`;
  }
  return null;
}
