import { randomUUID } from 'node:crypto';
import {
  errorPolicyOf,
  floorIdOfMap,
  floorMapId,
  REPORT_TRACK_POINTS_MAX,
  type FloorDetail,
  type FlowStep,
  type FlowStepResult,
  type MapDocument,
  type VdaAction,
  type VdaState,
  type Waypoint,
  WaypointType,
} from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { Outbound } from '../../lib/outbound.ts';
import type { Clock } from '../../lib/time.ts';
import type { ActivityService } from '../activity/activity-service.ts';
import { BuildingSystemError } from '../building-systems/adapter.ts';
import { buildingSystemsFor } from '../building-systems/registry.ts';
import { passSecurityDoor, rideElevator } from '../building-systems/ride.ts';
import { plan, startOf, stopsOf } from '../maps/navigation-service.ts';
import { orderMessage, startingAt } from '../robot-link/messages.ts';
import type { RobotDetails, RobotLink } from '../robot-link/types.ts';
import { followingSiblings, MOVE_KINDS, next, passOf, resolve, ROBOT_ACTION_KINDS, type Frames } from './cursor.ts';
import { runRepo, type FlowRunRow } from './run-repo.ts';
import type { NotificationEventInput } from '../notifications/notification-engine.ts';
import type { MeterCheckInput, MeterCheckResult } from '../meter-reading/meter-check.ts';
import { meterScale } from '../meter-reading/reading-service.ts';

/** How long a run's owner holds it without renewing; renewed every RENEW_MS. */
export const RUN_LEASE_MS = 15_000;
const RENEW_MS = 3_000;
/**
 * Held runs let go per event-loop turn at their instant (docs/api-schedules.md "Prepared starts"):
 * what is left of a held run is small (its first order's publish, or its first step's writes, which
 * wait for the database), so a whole burst goes in one sweep and the orders are written out before
 * the robots' answers to them are read. 16 per turn let those answers in between every few orders:
 * a 1,000-robot burst on one SQLite server reached the wire with p99 1.5 s, against 0.2 s now.
 */
const LET_GO_PER_TURN = 1000;
/**
 * A server that has just started has not heard from the robots yet: for this long it leaves an
 * orphaned run whose robot it has not heard alone (rather than closing it as unknown).
 */
const RECOVERY_GRACE_MS = 30_000;

type LeafStep = Exclude<FlowStep, { kind: 'loop' }>;

/** Frames past the end of any definition: the run is done. */
const END: Frames = [{ index: Number.MAX_SAFE_INTEGER, pass: 0 }];

/** The last node of the order's base: where the next order update stitches on. */
interface BaseNode {
  nodeId: string;
  seq: number;
  x: number;
  y: number;
  theta?: number;
  mapId: string;
}

/** What the current step waits for (kept so another server can pick the run up). */
type Wait =
  | { kind: 'node'; orderId: string; seq: number }
  | { kind: 'actions'; actionIds: string[] }
  /** A `launchWorkPlan` step: the run is paused until the operator closes this work plan run. */
  | { kind: 'workPlan'; workPlanRunId: number }
  | null;

/** The run's cursor as stored (`flow_runs.cursor`, JSON). */
export interface RunCursor {
  frames: Frames;
  /** The floor the robot is on as far as the flow knows (moveToFloor changes it). */
  floorId: number;
  order: { orderId: string; updateId: number; last: BaseNode } | null;
  wait: Wait;
  /** Steps started so far (the record's `seq`). */
  seq: number;
  /** Node actions sent ahead with a move, by step key (`pass|stepId`). */
  nodeActions: Record<string, string[]>;
  /** The open task (taskStart ... taskComplete). */
  task: string | null;
  /**
   * A run prepared ahead of its start (a schedule's occurrence, docs/api-schedules.md "Prepared
   * starts"): its first step waits until this instant (ISO), also after a restart.
   */
  notBefore?: string | null;
}

export const initialCursor = (floorId: number): RunCursor => ({
  frames: [],
  floorId,
  order: null,
  wait: null,
  seq: 0,
  nodeActions: {},
  task: null,
});

/** A step that did not go through: the code the record keeps and the message. */
export class StepFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
class Cancelled extends Error {}
class RunFailed extends Error {
  constructor(readonly failure: StepFailure) {
    super(failure.message);
  }
}

type Data = Record<string, string | number | boolean | null>;

export interface RunnerDeps {
  db: Kysely<Database>;
  clock: Clock;
  robotLink: RobotLink;
  log: Pick<FastifyBaseLogger, 'error' | 'warn' | 'info'>;
  outbound: Outbound;
  activity: ActivityService;
  /** The floor's current map document. */
  mapOf(floorId: number): Promise<MapDocument>;
  /** Elevator and door polling (tests make it short). */
  buildingPollMs?: number;
  /** How long after start an orphaned run of a robot not heard yet is left alone (default 30 s). */
  recoveryGraceMs?: number;
  /** Told when a run has ended (its record closed): the report is written from it (modules/reports). */
  reports?: { runEnded(runId: number): void };
  /** Records a notification event (docs/notifications.md): failed runs, task events, notification steps. */
  notify?: (e: NotificationEventInput) => Promise<unknown>;
  /**
   * The meter check of a `meterCheck` step (modules/meter-reading/meter-check.ts: read, judge, notify)
   * and the stored photo's bytes it reads. Without them a meterCheck step fails (RUN_NOT_AVAILABLE).
   */
  meterCheck?: (input: MeterCheckInput) => Promise<MeterCheckResult | null>;
  readFile?: (key: string) => Promise<Uint8Array | null>;
  /** How long a meterCheck step waits for its photo to be stored after the action finished (default 15 s). */
  photoWaitMs?: number;
  /**
   * Work plans (modules/work-plans): a `launchWorkPlan` step opens the plan on the robot (once per
   * flow run and step) and the run waits until the operator closes it. Without them the step fails.
   */
  workPlans?: {
    launch(robotId: number, workPlanId: number, flowRunId: number): Promise<number>;
    isClosed(workPlanRunId: number): Promise<boolean>;
  };
  /** How often a waiting `launchWorkPlan` step looks whether the work plan is closed (default 1 s). */
  workPlanPollMs?: number;
}

/** How long a meterCheck step waits for the robot's photo to be stored, and how often it looks. */
const CHECK_PHOTO_WAIT_MS = 15_000;
const CHECK_PHOTO_POLL_MS = 100;

/** A track point is kept when the robot moved at least this far (metres) from the last one kept. */
const TRACK_MIN_MOVE_M = 0.5;
const round2 = (v: number) => Math.round(v * 100) / 100;

export interface RunEvents {
  /** A run owned here changed (status, step). */
  changed?(runId: number): void;
}

/** One run being carried out on this server. */
class Execution {
  readonly abort = new AbortController();
  private waiters = new Set<() => void>();
  paused: boolean;
  cancelRequested = false;
  /** Another server took the run over: stop here without writing anything. */
  lost = false;
  /** A prepared run that begins with a move: held (RunCursor.notBefore) just before its first order leaves. */
  holdFirstOrder = false;
  /** The record row of the step in progress, and its progress writes in order (awaited before it ends). */
  stepRow: number | null = null;
  pending: Promise<void> = Promise.resolve();
  done: Promise<void> = Promise.resolve();
  /**
   * The path driven since the last step ended, `[floorId, x, y]` thinned to a point per
   * TRACK_MIN_MOVE_M (kept in memory, written with the step's record: docs/api-reports.md "Tracks").
   */
  track: Array<[number, number, number]> = [];
  lastPoint: [number, number, number] | null = null;
  /** Points kept per floor (at most REPORT_TRACK_POINTS_MAX). */
  kept = new Map<number, number>();

  constructor(
    public run: FlowRunRow,
    readonly steps: FlowStep[],
    public cursor: RunCursor,
  ) {
    this.paused = run.status === 'paused';
  }
  get robotId() {
    return this.run.robot_id;
  }
  /** A state's position onto the track (the floor from its map id, else the flow's floor). */
  sample(pos: { x: number; y: number; mapId: string } | undefined) {
    if (!pos || !Number.isFinite(pos.x) || !Number.isFinite(pos.y)) return;
    const floorId = floorIdOfMap(pos.mapId) ?? this.cursor.floorId;
    const last = this.lastPoint;
    if (last && last[0] === floorId && Math.hypot(pos.x - last[1], pos.y - last[2]) < TRACK_MIN_MOVE_M) return;
    const n = this.kept.get(floorId) ?? 0;
    if (n >= REPORT_TRACK_POINTS_MAX) return;
    this.kept.set(floorId, n + 1);
    this.lastPoint = [floorId, pos.x, pos.y];
    this.track.push([floorId, round2(pos.x), round2(pos.y)]);
  }
  /** Something changed (the robot's state, pause, cancel): the waiting step looks again. */
  wake() {
    for (const w of [...this.waiters]) w();
  }
  listen(w: () => void): () => void {
    this.waiters.add(w);
    return () => this.waiters.delete(w);
  }
}

const refersTo = (err: VdaState['errors'][number], key: string, value: string) =>
  (err.errorReferences ?? []).some((r) => r.referenceKey === key && r.referenceValue === value);

/** The error code of a failed action step (spec section 8 where one fits). */
function actionFailureCode(kind: string): string {
  if (kind === 'speak' || kind === 'playAudio') return 'F0001';
  if (kind === 'takePhoto' || kind === 'meterCheck') return 'F0002';
  if (kind === 'cameraSettings') return 'F0006';
  return 'RUN_ACTION_FAILED';
}

/**
 * The flow runner (docs/flow-runner.md): carries out the runs this server owns, one async loop per
 * run, step after step, following the robot's VDA 5050 state. Moves become orders and order updates
 * on the run's order; the robot-action steps right after a move ride along as node actions (HARD) on
 * its goal node, other actions are instant actions; elevators and doors go through the building's
 * adapter. Every step is recorded before it is attempted, and the cursor after it, so a run is picked
 * up after a restart (by this or another server) or closed as unknown.
 */
export function createRunner(deps: RunnerDeps, events: RunEvents = {}) {
  const { clock, robotLink: link, log } = deps;
  const repo = runRepo(deps.db);
  const instanceId = randomUUID();
  const executions = new Map<number, Execution>();
  const byRobot = new Map<number, Execution>();
  let closed = false;
  const startedAt = Date.now();

  const now = () => clock().toISOString();
  const leaseUntil = () => new Date(clock().getTime() + RUN_LEASE_MS).toISOString();

  // ------------------------------------------------------------------ prepared starts
  /**
   * Runs held until their `notBefore` instant, by instant. At the instant they are let go one at a
   * time, the event loop turning between two (so each first order reaches the wire while the next run
   * starts, instead of all after the last); the heartbeat lets go those a moved test clock passed.
   */
  const holds = new Map<number, Map<Execution, () => void>>();
  const letGo = async (at: number) => {
    const group = holds.get(at);
    if (!group) return;
    holds.delete(at);
    let n = 0;
    for (const go of group.values()) {
      go();
      if (++n % LET_GO_PER_TURN === 0) await new Promise<void>((r) => setImmediate(r));
    }
  };
  /** The hold of a run that begins with a move, at its first order (or, failing that, before its next step). */
  const holdFirstOrder = async (ex: Execution) => {
    if (!ex.holdFirstOrder) return;
    ex.holdFirstOrder = false;
    await hold(ex);
  };
  const hold = (ex: Execution): Promise<void> => {
    const at = ex.cursor.notBefore ? Date.parse(ex.cursor.notBefore) : NaN;
    const wait = at - clock().getTime();
    if (!(wait > 0) || closed) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      let group = holds.get(at);
      if (!group) {
        group = new Map();
        holds.set(at, group);
        setTimeout(() => void letGo(at), wait).unref();
      }
      const onAbort = () => {
        holds.get(at)?.delete(ex);
        reject(new Cancelled());
      };
      ex.abort.signal.addEventListener('abort', onAbort, { once: true });
      group.set(ex, () => {
        ex.abort.signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  };

  // Floors' maps, parsed once per revision: a move asks only for the current revision number.
  const maps = new Map<number, { revision: number; doc: Promise<MapDocument> }>();
  const mapOf = async (floorId: number): Promise<MapDocument> => {
    const revision = await repo.mapRevision(floorId);
    const hit = maps.get(floorId);
    if (hit && hit.revision === revision) return hit.doc;
    const doc = deps.mapOf(floorId);
    maps.set(floorId, { revision, doc });
    doc.catch(() => maps.delete(floorId));
    return doc;
  };

  const offState = link.on('state', (e) => {
    const ex = byRobot.get(e.robotId);
    if (!ex) return;
    ex.sample(e.state.agvPosition);
    ex.wake();
  });
  const offLive = link.on('live', (e) => byRobot.get(e.robotId)?.wake());

  // ------------------------------------------------------------------ record
  const saveCursor = (ex: Execution, extra: Partial<FlowRunRow> = {}) =>
    repo.update(ex.run.id, { cursor: JSON.stringify(ex.cursor), ...extra });

  async function startStep(ex: Execution, step: LeafStep, frames: Frames, attempt: number): Promise<number> {
    ex.cursor.seq += 1;
    const id = await repo.insertStep({
      run_id: ex.run.id,
      seq: ex.cursor.seq,
      step_id: step.id,
      kind: step.kind,
      pass: passOf(frames),
      attempt,
      result: 'running',
      // A prepared run's first step begins at the run's instant (RunCursor.notBefore), not before.
      started_at: ex.cursor.notBefore && ex.cursor.notBefore > now() ? ex.cursor.notBefore : now(),
      ended_at: null,
      error_code: null,
      message: null,
      data: '{}',
    });
    await saveCursor(ex, {
      current_step_id: step.id,
      current_step_kind: step.kind,
      steps_started: ex.cursor.seq,
    });
    events.changed?.(ex.run.id);
    return id;
  }

  /** A ride's or passage's phase as it changes, on the step's record (what operator screens show). */
  function progress(ex: Execution, data: Data): void {
    const row = ex.stepRow;
    if (row === null) return;
    ex.pending = ex.pending
      .then(() => repo.updateStep(row, { data: JSON.stringify(data) }))
      .then(() => events.changed?.(ex.run.id))
      .catch((err: unknown) => log.warn({ err, runId: ex.run.id }, 'step progress not recorded'));
  }

  /** Ends a step's record with where the robot is (`atFloorId`, `atX`, `atY`) and the track since the last one. */
  const endStep = (ex: Execution, id: number, result: FlowStepResult, data: Data, failure?: StepFailure) => {
    const pos = link.details(ex.robotId)?.state?.agvPosition;
    ex.sample(pos);
    const at: Data = pos
      ? { atFloorId: floorIdOfMap(pos.mapId) ?? ex.cursor.floorId, atX: round2(pos.x), atY: round2(pos.y) }
      : {};
    const track = ex.track.length > 0 ? { track: JSON.stringify(ex.track) } : {};
    ex.track = [];
    return repo.updateStep(id, {
      result,
      ended_at: now(),
      data: JSON.stringify({ ...data, ...at, ...track }),
      error_code: failure?.code ?? null,
      message: failure ? failure.message.slice(0, 500) : null,
    });
  };

  // ------------------------------------------------------------------ waiting on the robot
  /**
   * Resolves once `check` holds on the robot's state; fails the step when the robot goes offline,
   * its emergency stop is pressed or it reports a FATAL error; rejects with Cancelled on cancel.
   */
  function until(
    ex: Execution,
    check: (d: RobotDetails & { state: VdaState }) => boolean | StepFailure,
    timeoutMs?: number,
  ): Promise<void> {
    return new Promise<void>((resolvePromise, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const stop = ex.listen(() => evaluate());
      const finish = (err?: Error) => {
        stop();
        if (timer) clearTimeout(timer);
        ex.abort.signal.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolvePromise();
      };
      const onAbort = () => finish(new Cancelled());
      ex.abort.signal.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs !== undefined)
        timer = setTimeout(() => finish(new StepFailure('RUN_TIMEOUT', 'The step did not finish in time')), timeoutMs);
      function evaluate() {
        if (ex.abort.signal.aborted) return finish(new Cancelled());
        const d = link.details(ex.robotId);
        if (!d || !d.online) return finish(new StepFailure('RUN_OFFLINE', 'The robot went offline'));
        const state = d.state;
        if (!state) return;
        if (state.safetyState.eStop !== 'NONE')
          return finish(new StepFailure('RUN_EMERGENCY_STOP', 'The emergency stop was pressed'));
        const fatal = state.errors.find((e) => e.errorLevel === 'FATAL' && e.errorType !== 'emergencyStop');
        if (fatal) {
          const code = /^[FD]\d{4}$/.test(fatal.errorType) ? fatal.errorType : 'RUN_ROBOT_ERROR';
          return finish(new StepFailure(code, fatal.errorDescription ?? fatal.errorType));
        }
        const r = check({ ...d, state });
        if (r === true) finish();
        else if (r instanceof StepFailure) finish(r);
      }
      evaluate();
    });
  }

  const sleep = (ex: Execution, ms: number) =>
    new Promise<void>((resolvePromise, reject) => {
      // A cancel that came while the step was being recorded: the abort event has already fired.
      if (ex.abort.signal.aborted) return reject(new Cancelled());
      const timer = setTimeout(() => {
        ex.abort.signal.removeEventListener('abort', onAbort);
        resolvePromise();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(new Cancelled());
      };
      ex.abort.signal.addEventListener('abort', onAbort, { once: true });
    });

  // ------------------------------------------------------------------ robot actions
  /** The VDA 5050 actions (type and parameters) a robot-action step is carried out with. */
  async function actionsOf(
    ex: Execution,
    step: LeafStep,
  ): Promise<Array<{ type: string; params: Record<string, string> }>> {
    const p = (o: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(o)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, String(v)]),
      );
    switch (step.kind) {
      case 'speak': {
        if (step.speechTextId !== undefined) {
          const t = await repo.speechText(step.speechTextId, ex.run.building_id);
          if (!t) throw new StepFailure('F0001', 'The speech text no longer exists');
          return [{ type: 'speak', params: p({ text: t.text, language: t.language }) }];
        }
        return [{ type: 'speak', params: p({ text: step.text, language: step.language }) }];
      }
      case 'playAudio':
        return [{ type: 'playAudio', params: p({ audio: step.audio, volume: step.volume }) }];
      case 'takePhoto':
        return [{ type: 'takePhoto', params: p({ camera: step.camera, resolution: step.resolution }) }];
      case 'recording':
        return [
          step.action === 'start'
            ? { type: 'startRecording', params: p({ quality: step.quality }) }
            : { type: 'stopRecording', params: {} },
        ];
      case 'cameraSettings':
        return [{ type: 'setCamera', params: p({ camera: step.camera, zoom: step.zoom, colorMap: step.colorMap }) }];
      case 'pose':
        return [
          {
            type: 'setPose',
            params: p({ target: step.target, pan: step.pan, tilt: step.tilt, poseDefId: step.poseDefId }),
          },
        ];
      case 'face':
        return [{ type: 'setFace', params: p({ expression: step.expression, text: step.text }) }];
      case 'lights': {
        const out: Array<{ type: string; params: Record<string, string> }> = [];
        if (step.ringLight !== undefined) out.push({ type: 'setRingLight', params: p({ on: step.ringLight }) });
        if (step.patrolLamp !== undefined) out.push({ type: 'setPatrolLamp', params: p({ on: step.patrolLamp }) });
        return out;
      }
      case 'safetyMargin':
        return [{ type: 'setSafetyMargin', params: p({ meters: step.meters }) }];
      default:
        return [];
    }
  }

  const capable = (robotId: number, types: string[]) => types.every((t) => link.announces(robotId, t));

  /** Waits for the actions' states: all FINISHED, or the first FAILED fails the step. */
  function actionsDone(ex: Execution, step: LeafStep, actionIds: string[]) {
    return until(ex, ({ state }) => {
      let finished = 0;
      for (const id of actionIds) {
        const st = state.actionStates.find((a) => a.actionId === id);
        if (!st) continue;
        if (st.actionStatus === 'FAILED')
          return new StepFailure(actionFailureCode(step.kind), st.resultDescription ?? `${st.actionType} failed`);
        if (st.actionStatus === 'FINISHED') finished++;
      }
      return finished === actionIds.length;
    });
  }

  async function robotAction(ex: Execution, step: LeafStep, frames: Frames, attempt: number): Promise<Data> {
    const key = `${passOf(frames)}|${step.id}`;
    const sent = ex.cursor.nodeActions[key];
    delete ex.cursor.nodeActions[key];
    let ids = attempt === 1 ? sent : undefined;
    if (!ids) {
      const actions = await actionsOf(ex, step);
      if (
        !capable(
          ex.robotId,
          actions.map((a) => a.type),
        )
      )
        throw new StepFailure('RUN_CAPABILITY', `The robot cannot do ${actions.map((a) => a.type).join(', ')}`);
      ids = [];
      for (const a of actions) ids.push(await link.instantAction(ex.robotId, a.type, a.params));
    }
    ex.cursor.wait = { kind: 'actions', actionIds: ids };
    await saveCursor(ex);
    await actionsDone(ex, step, ids);
    return step.kind === 'takePhoto' ? { actionId: ids[0] ?? null, camera: step.camera } : { actionIds: ids.join(',') };
  }

  // ------------------------------------------------------------------ moves
  const nodeOf = (n: {
    nodeId: string;
    sequenceId: number;
    nodePosition?: { x: number; y: number; theta?: number; mapId: string };
  }): BaseNode => ({
    nodeId: n.nodeId,
    seq: n.sequenceId,
    x: n.nodePosition!.x,
    y: n.nodePosition!.y,
    ...(n.nodePosition!.theta === undefined ? {} : { theta: n.nodePosition!.theta }),
    mapId: n.nodePosition!.mapId,
  });

  /** The robot still holds the run's order and its base ends where the cursor says: an update stitches on. */
  function canStitch(ex: Execution, state: VdaState | null): boolean {
    const o = ex.cursor.order;
    if (!o || !state || state.orderId !== o.orderId) return false;
    return state.lastNodeSequenceId <= o.last.seq;
  }

  /** Node actions for the robot-action steps right after a move (same list, same pass). */
  async function aheadActions(ex: Execution, frames: Frames, version: string): Promise<VdaAction[]> {
    const out: VdaAction[] = [];
    for (const s of followingSiblings(ex.steps, frames)) {
      if (!ROBOT_ACTION_KINDS.has(s.step.kind)) break;
      const leaf = s.step as LeafStep;
      let actions: Array<{ type: string; params: Record<string, string> }>;
      try {
        actions = await actionsOf(ex, leaf);
      } catch {
        break; // the step fails on its own turn
      }
      if (
        actions.length === 0 ||
        !capable(
          ex.robotId,
          actions.map((a) => a.type),
        )
      )
        break;
      const ids: string[] = [];
      for (const a of actions) {
        const actionId = `${a.type}-${randomUUID()}`;
        ids.push(actionId);
        out.push({
          actionId,
          actionType: a.type,
          ...(version === '2.0.0' ? { actionName: a.type } : {}),
          blockingType: 'HARD',
          actionParameters: Object.entries(a.params).map(([key, value]) => ({ key, value })),
        } as VdaAction);
      }
      ex.cursor.nodeActions[`${passOf(s.frames)}|${leaf.id}`] = ids;
    }
    return out;
  }

  /**
   * Drives through `goals` on the floor: an order update stitched on the run's order when the robot
   * still holds it, else a new order from where the robot stands. Resolves once the goal is reached.
   */
  async function drive(
    ex: Execution,
    frames: Frames,
    floorId: number,
    goals: Waypoint[],
    doc: MapDocument,
  ): Promise<Data> {
    const d = link.details(ex.robotId);
    if (!d?.online || !d.state) throw new StepFailure('RUN_OFFLINE', 'The robot is offline');
    const pos = d.state.agvPosition;
    const mapId = floorMapId(floorId);
    const byId = new Map(doc.waypoints.map((w) => [w.id, w]));
    const stitch = canStitch(ex, d.state) && ex.cursor.order!.last.mapId === mapId;
    const o = ex.cursor.order;
    let from: Waypoint | undefined;
    if (stitch && o!.last.nodeId.startsWith('wp-')) from = byId.get(Number(o!.last.nodeId.slice(3)));
    if (!from) {
      if (!pos || pos.mapId !== mapId) throw new StepFailure('RUN_WRONG_FLOOR', 'The robot is not on the flow’s floor');
      from = startOf(doc, pos, goals[0]!.id);
    }
    let planned;
    try {
      planned = plan(doc, from, goals);
    } catch (err) {
      if (err instanceof AppError) throw new StepFailure('RUN_NO_PATH', err.message);
      throw err;
    }
    let stops = stopsOf(doc, { id: floorId } as FloorDetail, planned);
    const version = d.protocolVersion?.startsWith('2.0') ? '2.0.0' : '2.1.0';
    const actions = await aheadActions(ex, frames, version);
    const useStitch = stitch && (o!.last.nodeId === stops[0]!.nodeId || !o!.last.nodeId.startsWith('wp-'));
    let orderId: string;
    let updateId: number;
    if (useStitch) {
      orderId = o!.orderId;
      updateId = o!.updateId + 1;
      const last = o!.last;
      const rest = last.nodeId === stops[0]!.nodeId ? stops.slice(1) : stops;
      stops = [
        {
          nodeId: last.nodeId,
          x: last.x,
          y: last.y,
          mapId: last.mapId,
          ...(last.theta === undefined ? {} : { theta: last.theta }),
        },
        ...rest,
      ];
    } else {
      await takeOver(ex, d.state);
      orderId = randomUUID();
      updateId = 0;
      stops = startingAt(stops, pos ? { x: pos.x, y: pos.y, mapId: pos.mapId } : null, `start-${orderId.slice(0, 8)}`);
    }
    // A goal the robot stands on still needs a node of its own for the actions (or to be reached).
    if (stops.length === 1 && useStitch) stops = [stops[0]!, { ...stops[0]! }];
    const message = orderMessage(
      { headerId: 0, timestamp: '', version, manufacturer: '', serialNumber: '' },
      orderId,
      stops,
    );
    const offset = useStitch ? o!.last.seq : 0;
    const nodes = message.nodes.map((n) => ({ ...n, sequenceId: n.sequenceId + offset }));
    const edges = message.edges.map((e) => ({
      ...e,
      sequenceId: e.sequenceId + offset,
      edgeId: `${e.edgeId}@${e.sequenceId + offset}`,
    }));
    const goal = nodes[nodes.length - 1]!;
    goal.actions = actions;
    ex.cursor.order = { orderId, updateId, last: nodeOf(goal) };
    ex.cursor.wait = { kind: 'node', orderId, seq: goal.sequenceId };
    await saveCursor(ex);
    await holdFirstOrder(ex);
    await link.publishOrder(ex.robotId, { orderId, orderUpdateId: updateId, nodes, edges });
    await reachNode(ex, orderId, updateId, goal.sequenceId);
    return { orderId, orderUpdateId: updateId, waypointId: goals[goals.length - 1]!.id };
  }

  /**
   * The robot holds an order that is not the run's (a demo patrol, a goto, a trial run): the flow
   * takes over. It is cancelled and the robot waited for until it stands free, so the run's new order
   * is not refused as "an order is still active".
   */
  async function takeOver(ex: Execution, state: VdaState): Promise<void> {
    const holds = (st: VdaState) => st.nodeStates.length > 0 || st.edgeStates.length > 0;
    if (!holds(state) || state.orderId === ex.cursor.order?.orderId) return;
    await link.command(ex.robotId, 'cancel');
    await until(ex, ({ state: st }) => !holds(st) && !st.driving);
  }

  function reachNode(ex: Execution, orderId: string, updateId: number, seq: number) {
    // Once the robot has shown the update, losing the goal (a cancel or another order) fails the step.
    let acknowledged = false;
    return until(ex, ({ state }) => {
      if (state.orderId === orderId && state.orderUpdateId >= updateId) acknowledged = true;
      if (acknowledged && !ex.paused) {
        if (state.orderId !== orderId)
          return new StepFailure('RUN_REJECTED', 'The robot dropped the order for another one');
        if (state.lastNodeSequenceId < seq && !state.nodeStates.some((n) => n.sequenceId === seq))
          return new StepFailure('RUN_REJECTED', 'The robot no longer holds the order (cancelled on the robot)');
      }
      const rejected = state.errors.find(
        (e) =>
          refersTo(e, 'orderId', orderId) &&
          (!(e.errorReferences ?? []).some((r) => r.referenceKey === 'orderUpdateId') ||
            refersTo(e, 'orderUpdateId', String(updateId))),
      );
      if (rejected) return new StepFailure('RUN_REJECTED', rejected.errorDescription ?? rejected.errorType);
      return state.orderId === orderId && state.lastNodeSequenceId >= seq;
    });
  }

  // ------------------------------------------------------------------ the steps
  async function floorIndex(buildingId: number, floorId: number) {
    const floors = await repo.floors(buildingId);
    return floors.find((f) => f.id === floorId)?.index ?? null;
  }

  async function exec(ex: Execution, step: LeafStep, frames: Frames, attempt: number): Promise<Data> {
    const floorId = ex.cursor.floorId;
    if (ROBOT_ACTION_KINDS.has(step.kind)) return robotAction(ex, step, frames, attempt);
    switch (step.kind) {
      case 'moveToWaypoint':
      case 'followRoute':
      case 'returnToCharger': {
        const doc = await mapOf(floorId);
        const byId = new Map(doc.waypoints.map((w) => [w.id, w]));
        let goals: Waypoint[];
        if (step.kind === 'moveToWaypoint') {
          const w = byId.get(step.waypointId);
          if (!w) throw new StepFailure('RUN_NO_PATH', `No waypoint ${step.waypointId} on this floor`);
          goals = [w];
        } else if (step.kind === 'followRoute') {
          const r = doc.routes.find((x) => x.id === step.routeId);
          if (!r) throw new StepFailure('RUN_NO_PATH', `No route ${step.routeId} on this floor`);
          goals = r.waypointIds.map((id) => byId.get(id)!).filter(Boolean);
        } else {
          const charger = doc.waypoints.find((w) => w.type === WaypointType.charge);
          if (!charger) throw new StepFailure('D0001', 'This floor has no charging waypoint');
          goals = [charger];
        }
        try {
          return await drive(ex, frames, floorId, goals, doc);
        } catch (err) {
          if (step.kind === 'returnToCharger' && err instanceof StepFailure)
            throw new StepFailure('D0001', err.message);
          throw err;
        }
      }
      case 'moveToFloor':
        return moveToFloor(ex, step, frames);
      case 'passSecurityDoor': {
        const adapter = await buildingSystemsFor(deps.db, ex.run.building_id, deps.outbound);
        if (!adapter) throw new StepFailure('S0020', 'The building has no security system linked');
        const robot = await repo.robot(ex.robotId);
        let last = 'prep';
        try {
          await passSecurityDoor(
            adapter,
            { door: step.doorId, rider: robot?.serial_no ?? String(ex.robotId) },
            {
              onPhase: (ph) => {
                last = ph;
                progress(ex, { door: step.doorId, phase: ph });
              },
              pass: async () => undefined,
            },
            { signal: ex.abort.signal, ...(deps.buildingPollMs ? { pollMs: deps.buildingPollMs } : {}) },
          );
        } catch (err) {
          if (ex.abort.signal.aborted) throw new Cancelled();
          if (err instanceof BuildingSystemError) throw new StepFailure(err.code, err.message);
          throw err;
        }
        return { door: step.doorId, phase: last };
      }
      case 'wait': {
        if (step.detectPerson) {
          const params = {
            camera: step.detectPerson.camera,
            distanceM: String(step.detectPerson.distanceM),
            timeoutS: String(step.seconds),
          };
          if (!capable(ex.robotId, ['detectPerson']))
            throw new StepFailure('RUN_CAPABILITY', 'The robot cannot detect persons');
          const id = await link.instantAction(ex.robotId, 'detectPerson', params);
          let detected = true;
          await until(ex, ({ state }) => {
            const st = state.actionStates.find((a) => a.actionId === id);
            if (st?.actionStatus === 'FINISHED') return true;
            if (st?.actionStatus === 'FAILED') {
              // The wait's time is up without anyone in range: the flow goes on.
              detected = false;
              return true;
            }
            return false;
          });
          return { detected };
        }
        await sleep(ex, step.seconds * 1000);
        return { seconds: step.seconds };
      }
      case 'taskStart':
        ex.cursor.task = step.name;
        return { task: step.name };
      case 'taskComplete': {
        const task = ex.cursor.task;
        ex.cursor.task = null;
        return { task };
      }
      case 'taskEvent':
        await notifyStep(ex, step.level, step.message);
        return { task: ex.cursor.task, level: step.level, message: step.message };
      case 'notification':
        // Sent to the named targets (of the robot's building or organization-wide) that its level reaches.
        await notifyStep(ex, step.level, step.message, step.targetIds ?? []);
        return { level: step.level, message: step.message, targets: (step.targetIds ?? []).join(',') };
      case 'meterCheck':
        return checkItem(ex, step);
      case 'launchWorkPlan': {
        const plans = deps.workPlans;
        if (!plans) throw new StepFailure('RUN_NOT_AVAILABLE', 'Work plans are not set up');
        let planRun: number;
        try {
          planRun = await plans.launch(ex.robotId, step.workPlanId, ex.run.id);
        } catch (err) {
          throw new StepFailure('RUN_NOT_AVAILABLE', err instanceof Error ? err.message : 'Work plan not launched');
        }
        // The flow waits here, paused (the operator walks through the plan), and goes on once it is closed.
        await awaitWorkPlan(ex, planRun);
        return { workPlanId: step.workPlanId, workPlanRunId: planRun };
      }
      case 'command':
        throw new StepFailure('RUN_NOT_AVAILABLE', `Command ${step.commandId} no longer exists`);
      default:
        throw new StepFailure('RUN_NOT_AVAILABLE', `Unknown step kind`);
    }
  }

  /**
   * The wait of a `launchWorkPlan` step: the run is `paused` (stored with the cursor naming the work
   * plan run, so a server picking the run up keeps waiting) until the work plan run is closed, then
   * `running` again. An operator's resume is refused meanwhile (run-service.ts).
   */
  async function awaitWorkPlan(ex: Execution, workPlanRunId: number): Promise<void> {
    const plans = deps.workPlans;
    if (!plans) throw new StepFailure('RUN_NOT_AVAILABLE', 'Work plans are not set up');
    ex.cursor.wait = { kind: 'workPlan', workPlanRunId };
    if (!(await plans.isClosed(workPlanRunId))) {
      ex.paused = true;
      await saveCursor(ex, { status: 'paused' });
      events.changed?.(ex.run.id);
      while (!(await plans.isClosed(workPlanRunId))) await sleep(ex, deps.workPlanPollMs ?? 1000);
    }
    ex.paused = false;
    await repo.update(ex.run.id, { status: 'running' });
    events.changed?.(ex.run.id);
  }

  /**
   * A meterCheck step (docs/meter-reading.md): straight to the check item's place (x, y, theta =
   * direction) on the current floor as an order (stitched on the run's order when the robot still
   * holds it), an instant takePhoto, the stored photo read by `meterCheck` (threshold log line and
   * notification on a breach). A reading that failed is done with `result` 9 and its error code.
   */
  async function checkItem(ex: Execution, step: Extract<LeafStep, { kind: 'meterCheck' }>): Promise<Data> {
    if (!deps.meterCheck || !deps.readFile) throw new StepFailure('RUN_NOT_AVAILABLE', 'Meter checks are not set up');
    const item = await repo.checkItem(step.checkItemId);
    if (!item || item.building_id !== ex.run.building_id)
      throw new StepFailure('RUN_DEVICE_NOT_FOUND', `Check item ${step.checkItemId} is not in the building`);
    if (item.x === null || item.y === null)
      throw new StepFailure('RUN_CHECK_ITEM_NOT_PLACED', `Check item ${item.name} has no place on the map`);
    if (item.floor_id !== ex.cursor.floorId)
      throw new StepFailure('RUN_WRONG_FLOOR', `Check item ${item.name} is on another floor`);
    const camera = step.camera ?? 'v1';
    if (!capable(ex.robotId, ['takePhoto'])) throw new StepFailure('RUN_CAPABILITY', 'The robot cannot do takePhoto');

    // 1. Drive straight to the item's place.
    const mapId = floorMapId(item.floor_id);
    const d = link.details(ex.robotId);
    if (!d?.online || !d.state) throw new StepFailure('RUN_OFFLINE', 'The robot is offline');
    const pos = d.state.agvPosition;
    const version = d.protocolVersion?.startsWith('2.0') ? '2.0.0' : '2.1.0';
    const o = ex.cursor.order;
    const stitch = canStitch(ex, d.state) && o!.last.mapId === mapId;
    if (!stitch) {
      if (!pos || pos.mapId !== mapId) throw new StepFailure('RUN_WRONG_FLOOR', 'The robot is not on the flow’s floor');
      await takeOver(ex, d.state);
    }
    const orderId = stitch ? o!.orderId : randomUUID();
    const updateId = stitch ? o!.updateId + 1 : 0;
    const first = stitch
      ? {
          nodeId: o!.last.nodeId,
          x: o!.last.x,
          y: o!.last.y,
          mapId: o!.last.mapId,
          ...(o!.last.theta === undefined ? {} : { theta: o!.last.theta }),
        }
      : { nodeId: `start-${orderId.slice(0, 8)}`, x: pos!.x, y: pos!.y, theta: pos!.theta, mapId };
    const stops = [first, { nodeId: `check-${item.id}`, x: item.x, y: item.y, theta: item.direction, mapId }];
    const msg = orderMessage(
      { headerId: 0, timestamp: '', version, manufacturer: '', serialNumber: '' },
      orderId,
      stops,
    );
    const offset = stitch ? o!.last.seq : 0;
    const nodes = msg.nodes.map((n) => ({ ...n, sequenceId: n.sequenceId + offset }));
    const edges = msg.edges.map((e) => ({
      ...e,
      sequenceId: e.sequenceId + offset,
      edgeId: `${e.edgeId}@${e.sequenceId + offset}`,
    }));
    const goal = nodes[nodes.length - 1]!;
    ex.cursor.order = { orderId, updateId, last: nodeOf(goal) };
    ex.cursor.wait = { kind: 'node', orderId, seq: goal.sequenceId };
    await saveCursor(ex);
    await link.publishOrder(ex.robotId, { orderId, orderUpdateId: updateId, nodes, edges });
    await reachNode(ex, orderId, updateId, goal.sequenceId);

    // 2. The photo, as an instant action, and its stored file.
    const actionId = await link.instantAction(ex.robotId, 'takePhoto', { camera, resolution: '1080p' });
    ex.cursor.wait = { kind: 'actions', actionIds: [actionId] };
    await saveCursor(ex);
    await actionsDone(ex, step, [actionId]);
    const waitMs = deps.photoWaitMs ?? CHECK_PHOTO_WAIT_MS;
    let stored = await repo.photo(ex.robotId, actionId);
    for (let waited = 0; !stored && waited < waitMs; waited += CHECK_PHOTO_POLL_MS) {
      await sleep(ex, CHECK_PHOTO_POLL_MS);
      stored = await repo.photo(ex.robotId, actionId);
    }
    if (!stored) throw new StepFailure('F0002', 'The photo was not stored');
    const bytes = await deps.readFile(stored.file_key);
    if (!bytes) throw new StepFailure('F0002', 'The photo was not stored');

    // 3. Read and judge.
    const r = await deps.meterCheck({
      checkItemId: item.id,
      robotId: ex.robotId,
      photo: bytes,
      photoFileKey: stored.file_key,
    });
    if (!r) throw new StepFailure('RUN_DEVICE_NOT_FOUND', `Check item ${step.checkItemId} no longer exists`);
    return {
      checkItemId: r.checkItemId,
      checkItemName: r.checkItemName,
      value: r.value,
      unit: meterScale(item.definition).unit,
      qr: r.qr,
      // 0 within the threshold, 1 a breach, 9 nothing read (report detail results).
      result: !r.ok ? 9 : r.breachLogId !== null ? 1 : 0,
      errorCode: r.errorCode,
      message: r.message,
      breachLogId: r.breachLogId,
      actionId,
      camera,
    };
  }

  async function moveToFloor(
    ex: Execution,
    step: Extract<LeafStep, { kind: 'moveToFloor' }>,
    frames: Frames,
  ): Promise<Data> {
    const from = await floorIndex(ex.run.building_id, ex.cursor.floorId);
    const to = await floorIndex(ex.run.building_id, step.floorId);
    if (from === null || to === null) throw new StepFailure('A0001', 'The floor is not in the building');
    const doc = await mapOf(step.floorId);
    const target = doc.waypoints.find((w) => w.id === step.waypointId);
    if (!target) throw new StepFailure('RUN_NO_PATH', `No waypoint ${step.waypointId} on floor ${step.floorId}`);
    const adapter = await buildingSystemsFor(deps.db, ex.run.building_id, deps.outbound);
    if (!adapter) throw new StepFailure('A0001', 'The building has no elevator system linked');
    const robot = await repo.robot(ex.robotId);
    let last = 'prep';
    try {
      const bank = (await adapter.banks()).find(
        (b) => !b.outOfService && b.floors.includes(from) && b.floors.includes(to),
      );
      if (!bank) throw new StepFailure('A0002', `No elevator bank serves floors ${from} and ${to}`);
      await rideElevator(
        adapter,
        { bank: bank.id, from, to, rider: robot?.serial_no ?? String(ex.robotId) },
        {
          onPhase: (ph) => {
            last = ph;
            progress(ex, { floorId: step.floorId, waypointId: step.waypointId, phase: ph });
          },
          board: async () => undefined,
          alight: async () => {
            // The car is open on the destination floor: the robot leaves it onto the new floor's map.
            const mapId = floorMapId(step.floorId);
            const d = link.details(ex.robotId);
            const version = d?.protocolVersion?.startsWith('2.0') ? '2.0.0' : '2.1.0';
            const o = ex.cursor.order;
            const stitch = canStitch(ex, d?.state ?? null);
            const orderId = stitch ? o!.orderId : randomUUID();
            const updateId = stitch ? o!.updateId + 1 : 0;
            const pos = d?.state?.agvPosition;
            const first = stitch
              ? { nodeId: o!.last.nodeId, x: o!.last.x, y: o!.last.y, mapId: o!.last.mapId }
              : { nodeId: `start-${orderId.slice(0, 8)}`, x: pos?.x ?? 0, y: pos?.y ?? 0, mapId: pos?.mapId ?? mapId };
            const stops = [first, { nodeId: `wp-${target.id}`, x: target.x, y: target.y, theta: target.theta, mapId }];
            const msg = orderMessage(
              { headerId: 0, timestamp: '', version, manufacturer: '', serialNumber: '' },
              orderId,
              stops,
            );
            const offset = stitch ? o!.last.seq : 0;
            const nodes = msg.nodes.map((n) => ({ ...n, sequenceId: n.sequenceId + offset }));
            const edges = msg.edges.map((e) => ({
              ...e,
              sequenceId: e.sequenceId + offset,
              edgeId: `${e.edgeId}@${e.sequenceId + offset}`,
            }));
            const goal = nodes[nodes.length - 1]!;
            goal.actions = await aheadActions(ex, frames, version);
            ex.cursor.order = { orderId, updateId, last: nodeOf(goal) };
            ex.cursor.wait = { kind: 'node', orderId, seq: goal.sequenceId };
            await saveCursor(ex);
            await link.publishOrder(ex.robotId, { orderId, orderUpdateId: updateId, nodes, edges });
            await reachNode(ex, orderId, updateId, goal.sequenceId);
            ex.cursor.floorId = step.floorId;
            await saveCursor(ex);
          },
        },
        { signal: ex.abort.signal, ...(deps.buildingPollMs ? { pollMs: deps.buildingPollMs } : {}) },
      );
    } catch (err) {
      if (ex.abort.signal.aborted || err instanceof Cancelled) throw new Cancelled();
      if (err instanceof StepFailure) throw err;
      if (err instanceof BuildingSystemError) throw new StepFailure(err.code, err.message);
      throw err;
    }
    return { floorId: step.floorId, waypointId: step.waypointId, phase: last };
  }

  // ------------------------------------------------------------------ the loop of a run
  /** Resolves while the run may go on: at once when running, after resume when paused. */
  function whileRunning(ex: Execution): Promise<void> {
    if (!ex.paused) return Promise.resolve();
    return new Promise((resolvePromise, reject) => {
      const check = () => {
        if (ex.abort.signal.aborted) {
          stop();
          reject(new Cancelled());
        } else if (!ex.paused) {
          stop();
          resolvePromise();
        }
      };
      const unlisten = ex.listen(check);
      const stop = () => {
        unlisten();
        ex.abort.signal.removeEventListener('abort', check);
      };
      ex.abort.signal.addEventListener('abort', check, { once: true });
      check();
    });
  }

  async function carryOut(ex: Execution, resumeWait: boolean): Promise<void> {
    let resumeStep = resumeWait;
    // A prepared run is held until its instant; one that begins with a move only just before its first
    // order leaves (drive), so the step's record, the map and the path are ready by then.
    const first = ex.cursor.seq === 0 && !resumeWait ? resolve(ex.steps, ex.cursor.frames)?.step : undefined;
    if (first && MOVE_KINDS.has(first.kind) && ex.cursor.notBefore) ex.holdFirstOrder = true;
    else await hold(ex);
    // A run picked up while it waits on a work plan is paused by that wait, not by an operator.
    let waitsOnPlan = resumeWait && ex.cursor.wait?.kind === 'workPlan';
    for (;;) {
      if (!waitsOnPlan) await whileRunning(ex);
      waitsOnPlan = false;
      // A first move that sent no order (the robot already there) still waits for the instant.
      if (ex.cursor.seq > 0) await holdFirstOrder(ex);
      const at = resolve(ex.steps, ex.cursor.frames);
      if (!at) return;
      ex.cursor.frames = at.frames;
      const policy = errorPolicyOf(at.step);
      let attempt = 1;
      for (;;) {
        let stepRow: number;
        if (resumeStep) {
          // Picked up after a restart: the step in progress goes on under its record.
          resumeStep = false;
          const last = await repo.lastStep(ex.run.id);
          stepRow = last && last.result === 'running' ? last.id : await startStep(ex, at.step, at.frames, attempt);
          if (last && last.result === 'running') attempt = last.attempt;
        } else stepRow = await startStep(ex, at.step, at.frames, attempt);
        ex.stepRow = stepRow;
        try {
          const data =
            ex.cursor.wait && resumeWait
              ? await awaitResumed(ex, at.step, at.frames)
              : await exec(ex, at.step, at.frames, attempt);
          resumeWait = false;
          ex.cursor.wait = null;
          await ex.pending;
          await endStep(ex, stepRow, 'done', data);
          break;
        } catch (err) {
          resumeWait = false;
          await ex.pending;
          // Stopping (a server shutting down, or killed in a test): nothing more is written, as after a kill -9.
          if ((closed && !ex.cancelRequested) || ex.lost) throw new Cancelled();
          if (err instanceof Cancelled || ex.abort.signal.aborted) {
            await endStep(ex, stepRow, 'cancel', {});
            throw new Cancelled();
          }
          const failure =
            err instanceof StepFailure
              ? err
              : err instanceof AppError
                ? new StepFailure(err.code === 'CAPABILITY_MISSING' ? 'RUN_CAPABILITY' : 'RUN_OFFLINE', err.message)
                : new StepFailure('RUN_ACTION_FAILED', err instanceof Error ? err.message : String(err));
          ex.cursor.wait = null;
          // What the robot holds after a failure is not ours to stitch on: the next move starts a new order.
          if (MOVE_KINDS.has(at.step.kind) || at.step.kind === 'moveToFloor' || at.step.kind === 'meterCheck') {
            ex.cursor.order = null;
            ex.cursor.nodeActions = {};
          }
          const retry = policy.policy === 'retry' && attempt <= policy.retries;
          await endStep(ex, stepRow, policy.policy === 'skip' ? 'skip' : 'fail', {}, failure);
          await deps.activity
            .record({
              robotId: ex.robotId,
              kind: 'commandError',
              code: 'failed',
              params: {
                flowName: ex.run.flow_name,
                stepId: at.step.id,
                stepKind: at.step.kind,
                errorCode: failure.code,
                message: failure.message,
              },
            })
            .catch(() => undefined);
          if (retry) {
            attempt++;
            await whileRunning(ex);
            continue;
          }
          if (policy.policy === 'skip') break;
          throw new RunFailed(failure);
        }
      }
      const after = next(ex.steps, ex.cursor.frames);
      ex.cursor.frames = after ? after.frames : END;
      // The next step's record stores the cursor with it (one statement less per step); until then
      // the stored cursor names the step just ended, which `recover` knows from its record.
      if (!after) {
        await saveCursor(ex);
        return;
      }
    }
  }

  /** The step in progress when the run was picked up: wait for what it waited for. */
  async function awaitResumed(ex: Execution, step: LeafStep, frames: Frames): Promise<Data> {
    // A check picked up midway goes again from its start (drive, photo, reading).
    if (step.kind === 'meterCheck') return exec(ex, step, frames, 1);
    const w = ex.cursor.wait;
    if (w?.kind === 'node') {
      const o = ex.cursor.order;
      await reachNode(ex, w.orderId, o?.updateId ?? 0, w.seq);
      if (step.kind === 'moveToFloor') ex.cursor.floorId = step.floorId;
      return { orderId: w.orderId, resumed: true };
    }
    if (w?.kind === 'actions') {
      await actionsDone(ex, step, w.actionIds);
      return { actionIds: w.actionIds.join(','), resumed: true };
    }
    if (w?.kind === 'workPlan') {
      await awaitWorkPlan(ex, w.workPlanRunId);
      return {
        ...(step.kind === 'launchWorkPlan' ? { workPlanId: step.workPlanId } : {}),
        workPlanRunId: w.workPlanRunId,
        resumed: true,
      };
    }
    return exec(ex, step, frames, 1);
  }

  /** A flow's task event or notification step as a notification event (once per step record). */
  async function notifyStep(ex: Execution, level: 0 | 5 | 9, message: string, targetIds?: number[]) {
    await deps
      .notify?.({
        kind: 'taskEvent',
        robotId: ex.robotId,
        buildingId: ex.run.building_id,
        floorId: ex.cursor.floorId,
        level,
        message,
        details: { task: ex.cursor.task, flowName: ex.run.flow_name, runId: ex.run.id },
        ...(targetIds && targetIds.length > 0 ? { targetIds } : {}),
        dedupeKey: `taskEvent:${ex.run.id}:${ex.cursor.seq}`,
      })
      .catch((err: unknown) => log.error({ err, runId: ex.run.id }, 'task event not notified'));
  }

  async function finish(ex: Execution, status: 'done' | 'fail' | 'cancel' | 'unknown', failure?: StepFailure) {
    const at = now();
    await repo.closeOpenSteps(ex.run.id, status === 'unknown' ? 'unknown' : 'cancel', at);
    await repo.update(ex.run.id, {
      status,
      ended_at: at,
      cursor: JSON.stringify(ex.cursor),
      current_step_id: null,
      current_step_kind: null,
      error_code: failure?.code ?? null,
      message: failure?.message.slice(0, 500) ?? null,
      owner: null,
      lease_until: null,
    });
    const code = ({ done: 'finished', fail: 'failed', cancel: 'cancelled', unknown: 'unknown' } as const)[status];
    await deps.activity
      .record({
        robotId: ex.robotId,
        kind: 'flow',
        code,
        params: { runId: ex.run.id, flowName: ex.run.flow_name, errorCode: failure?.code ?? null },
      })
      .catch(() => undefined);
    if (status === 'fail') {
      await deps
        .notify?.({
          kind: 'flowRunFailed',
          robotId: ex.robotId,
          buildingId: ex.run.building_id,
          floorId: ex.cursor.floorId,
          details: {
            flowName: ex.run.flow_name,
            runId: ex.run.id,
            errorCode: failure?.code ?? null,
            reason: failure?.message.slice(0, 200) ?? null,
          },
          dedupeKey: `flowRunFailed:${ex.run.id}`,
        })
        .catch((err: unknown) => log.error({ err, runId: ex.run.id }, 'failed run not notified'));
    }
    events.changed?.(ex.run.id);
    deps.reports?.runEnded(ex.run.id);
  }

  function launch(ex: Execution, resumeWait: boolean) {
    executions.set(ex.run.id, ex);
    byRobot.set(ex.robotId, ex);
    ex.done = (async () => {
      try {
        await carryOut(ex, resumeWait);
        await finish(ex, 'done');
      } catch (err) {
        // Stopping (another server or the restart picks it up), or taken over: nothing is written.
        if ((closed && !ex.cancelRequested) || ex.lost) return;
        if (err instanceof Cancelled) await finish(ex, 'cancel');
        else if (err instanceof RunFailed) await finish(ex, 'fail', err.failure);
        else {
          log.error({ err, runId: ex.run.id }, 'flow run failed');
          await finish(
            ex,
            'fail',
            new StepFailure('RUN_ACTION_FAILED', err instanceof Error ? err.message : String(err)),
          ).catch(() => undefined);
        }
      } finally {
        executions.delete(ex.run.id);
        if (byRobot.get(ex.robotId) === ex) byRobot.delete(ex.robotId);
      }
    })();
  }

  // ------------------------------------------------------------------ ownership
  /** A run found without a living owner: picked up from the robot's state, or closed as unknown. */
  async function recover(runId: number): Promise<void> {
    const row = await repo.byId(runId);
    if (!row || (row.status !== 'running' && row.status !== 'paused')) return;
    const cursor = JSON.parse(row.cursor) as RunCursor;
    const ex = new Execution(row, JSON.parse(row.definition) as FlowStep[], cursor);
    if (row.cancel_requested) ex.cancelRequested = true;
    // The stored cursor may still name a step whose record has ended (the next one had not started):
    // the run goes on after it.
    const last = await repo.lastStep(row.id);
    const at = resolve(ex.steps, cursor.frames);
    if (
      last &&
      (last.result === 'done' || last.result === 'skip') &&
      at &&
      at.step.id === last.step_id &&
      passOf(at.frames) === last.pass
    ) {
      cursor.frames = next(ex.steps, at.frames)?.frames ?? END;
      cursor.wait = null;
    }
    const d = link.details(row.robot_id);
    const state = d?.online ? d.state : null;
    let pickUp = !!state;
    const w = cursor.wait;
    if (state && w?.kind === 'node') {
      const holds = state.orderId === w.orderId;
      const knows = state.lastNodeSequenceId >= w.seq || state.nodeStates.some((n) => n.sequenceId === w.seq);
      // A prepared run's first order, built ahead and held (RunCursor.notBefore), that the robot does
      // not hold never left: the step is sent again as a new order instead of the run being lost.
      const unsentFirst =
        !holds &&
        cursor.notBefore &&
        cursor.seq === 1 &&
        cursor.order?.orderId === w.orderId &&
        cursor.order.updateId === 0;
      if (unsentFirst) {
        cursor.wait = null;
        cursor.order = null;
      } else if (!holds) pickUp = false;
      else if (!knows) cursor.wait = null; // the update never reached the robot: the step is sent again
    } else if (state && w?.kind === 'actions') {
      if (!w.actionIds.every((id) => state.actionStates.some((a) => a.actionId === id))) cursor.wait = null;
    } else if (w?.kind === 'workPlan') {
      // The run waits on the operator's work plan, not on the robot: it is picked up and keeps waiting.
      pickUp = true;
    }
    if (!pickUp || ex.cancelRequested) {
      ex.run = row;
      await finish(
        ex,
        ex.cancelRequested ? 'cancel' : 'unknown',
        ex.cancelRequested
          ? undefined
          : new StepFailure(
              'RUN_SERVER_RESTART',
              'The server stopped during the run and the robot’s state does not show it',
            ),
      );
      if (ex.cancelRequested) await link.command(row.robot_id, 'cancel').catch(() => undefined);
      return;
    }
    launch(ex, true);
  }

  async function heartbeat() {
    if (closed) return;
    for (const at of [...holds.keys()]) if (at <= clock().getTime()) await letGo(at);
    const ids = [...executions.keys()];
    const rows = await repo.renew(instanceId, ids, leaseUntil());
    for (const r of rows) {
      const ex = executions.get(r.id);
      if (!ex) continue;
      if (r.owner !== instanceId) {
        // Taken over elsewhere (this server was too slow to renew): stop here without closing it.
        executions.delete(r.id);
        if (byRobot.get(ex.robotId) === ex) byRobot.delete(ex.robotId);
        ex.lost = true;
        ex.abort.abort();
        continue;
      }
      if (r.cancel_requested && !ex.cancelRequested) {
        ex.cancelRequested = true;
        ex.abort.abort();
      } else if ((r.status === 'paused') !== ex.paused) {
        ex.paused = r.status === 'paused';
        ex.wake();
      }
    }
    for (const o of await repo.orphans(now())) {
      if (closed) return;
      if (executions.has(o.id)) continue;
      const heard = link.details(o.robot_id);
      if (!(heard?.online && heard.state) && Date.now() - startedAt < (deps.recoveryGraceMs ?? RECOVERY_GRACE_MS))
        continue;
      if (await repo.claim(o.id, instanceId, now(), leaseUntil())) await recover(o.id);
    }
  }
  let beating = false;
  const timer = setInterval(() => {
    if (beating) return;
    beating = true;
    heartbeat()
      .catch((err: unknown) => log.error({ err }, 'flow runner heartbeat failed'))
      .finally(() => {
        beating = false;
      });
  }, RENEW_MS);
  timer.unref();

  return {
    instanceId,
    leaseUntil,
    /** Carries out a run just inserted by this server (it owns it). */
    begin(run: FlowRunRow) {
      launch(new Execution(run, JSON.parse(run.definition) as FlowStep[], JSON.parse(run.cursor) as RunCursor), false);
    },
    owns: (runId: number) => executions.has(runId),
    /** Pause or resume a run this server carries out (the status is already stored). */
    setPaused(runId: number, paused: boolean) {
      const ex = executions.get(runId);
      if (!ex) return;
      ex.paused = paused;
      ex.wake();
    },
    /** Cancel a run this server carries out: the step in progress ends as cancelled, then the run. */
    async cancel(runId: number): Promise<boolean> {
      const ex = executions.get(runId);
      if (!ex) return false;
      ex.cancelRequested = true;
      ex.abort.abort();
      await ex.done;
      return true;
    },
    /** Runs the ownership round now (tests; a timer runs it every RENEW_MS). */
    heartbeat,
    /** Stops carrying out runs; they are left to other servers or the next start (leases released). */
    async close(opts: { release?: boolean } = {}) {
      closed = true;
      clearInterval(timer);
      offState();
      offLive();
      const list = [...executions.values()];
      for (const ex of list) ex.abort.abort();
      await Promise.all(list.map((ex) => ex.done.catch(() => undefined)));
      if (opts.release !== false)
        await repo
          .release(
            instanceId,
            list.map((e) => e.run.id),
            now(),
          )
          .catch(() => undefined);
    },
  };
}
export type FlowRunner = ReturnType<typeof createRunner>;
