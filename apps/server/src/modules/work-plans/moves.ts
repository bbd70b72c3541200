import { randomUUID } from 'node:crypto';
import type { RobotLive, VdaState, WorkPlanDefinition, WorkPlanMove } from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/time.ts';
import type { RobotLink } from '../robot-link/types.ts';
import { workPlanRunRepo } from './run-repo.ts';

/**
 * Movement steps of work plans (docs/api-work-plans.md "Movement steps"). The robot is sent through
 * the goto order path (maps/navigation-service.ts) with an order id that names the run and the step,
 * `wp.<runId>.<stepId>.<nonce>` (step ids have no dots), so every server tells the move from the
 * robot's state without storing it: moving while the robot holds the order, arrived when it finished
 * at the step's waypoint (the step is then checked), failed when it was refused or ended elsewhere.
 */
const PREFIX = 'wp.';

export const moveOrderId = (runId: number, stepId: string) => `${PREFIX}${runId}.${stepId}.${randomUUID().slice(0, 8)}`;

/** The run and step an order id names, or null when it is not a work plan's move. */
export function parseMoveOrderId(orderId: string | null | undefined): { runId: number; stepId: string } | null {
  if (!orderId?.startsWith(PREFIX)) return null;
  const [runId, stepId] = orderId.slice(PREFIX.length).split('.');
  const id = Number(runId);
  return Number.isInteger(id) && id > 0 && stepId ? { runId: id, stepId } : null;
}

/** The node a movement step's order ends on (maps/navigation-service.ts stopsOf). */
function goalNode(def: WorkPlanDefinition, stepId: string): string | null {
  const step = def.steps.find((s) => s.id === stepId);
  return step?.main.kind === 'moveToWaypoint' && step.main.waypointId !== null && step.main.waypointId !== undefined
    ? `wp-${step.main.waypointId}`
    : null;
}

const refersTo = (err: VdaState['errors'][number], orderId: string) =>
  (err.errorReferences ?? []).some((r) => r.referenceKey === 'orderId' && r.referenceValue === orderId);

/**
 * The run's move as the robot shows it: its state's order when it is one of this run's, else the
 * order this server just sent (not answered yet, or refused). Null when neither is the run's.
 */
export function moveOf(
  runId: number,
  def: WorkPlanDefinition,
  state: VdaState | null | undefined,
  lastOrder: RobotLive['lastOrder'] | undefined,
): WorkPlanMove | null {
  const ofState = parseMoveOrderId(state?.orderId);
  if (state && ofState?.runId === runId) {
    const orderId = state.orderId;
    const base = { stepId: ofState.stepId, orderId };
    const refused = state.errors.find((e) => refersTo(e, orderId));
    if (refused)
      return {
        ...base,
        status: 'failed',
        errorCode: refused.errorType,
        message: refused.errorDescription ?? refused.errorType,
      };
    if (state.nodeStates.length > 0 || state.edgeStates.length > 0 || state.driving)
      return { ...base, status: 'moving', errorCode: null, message: null };
    if (state.lastNodeId === goalNode(def, ofState.stepId))
      return { ...base, status: 'arrived', errorCode: null, message: null };
    return {
      ...base,
      status: 'failed',
      errorCode: 'WORK_PLAN_MOVE_STOPPED',
      message: 'The robot stopped before the step’s waypoint (the order was cancelled)',
    };
  }
  const sent = parseMoveOrderId(lastOrder?.orderId);
  if (lastOrder && sent?.runId === runId && (lastOrder.status === 'sent' || lastOrder.status === 'rejected')) {
    const base = { stepId: sent.stepId, orderId: lastOrder.orderId };
    return lastOrder.status === 'rejected'
      ? {
          ...base,
          status: 'failed',
          errorCode: lastOrder.error?.type ?? 'RUN_REJECTED',
          message: lastOrder.error?.description ?? 'The robot refused the order',
        }
      : { ...base, status: 'moving', errorCode: null, message: null };
  }
  return null;
}

/**
 * Checks a step of an open run as the operator's confirm does: the step joins the done ones and the
 * current step is the first one not done. False when the run is closed (or the step is not its).
 */
export async function checkStep(db: Kysely<Database>, clock: Clock, runId: number, stepId: string): Promise<boolean> {
  const runs = workPlanRunRepo(db);
  return db.transaction().execute(async (trx) => {
    const row = await runs.openById(runId, trx);
    if (!row) return false;
    const def = JSON.parse(row.definition) as WorkPlanDefinition;
    if (!def.steps.some((s) => s.id === stepId)) return false;
    const done = new Set(JSON.parse(row.done_steps) as string[]);
    done.add(stepId);
    const next = def.steps.findIndex((s) => !done.has(s.id));
    return runs.progress(
      runId,
      {
        current_step: next === -1 ? def.steps.length : next,
        done_steps: JSON.stringify(def.steps.map((s) => s.id).filter((s) => done.has(s))),
        updated_at: clock().toISOString(),
      },
      trx,
    );
  });
}

/** Order ids handled so far (each finished move is looked at once per server); the oldest forgotten first. */
const HANDLED_MAX = 1_000;

/**
 * Watches the robots' states for finished work plan moves: a move that arrived at its step's waypoint
 * checks the step (every server may see it; checking is idempotent). Stops with the returned function.
 */
export function watchWorkPlanMoves(deps: {
  db: Kysely<Database>;
  clock: Clock;
  robotLink: RobotLink;
  log: Pick<FastifyBaseLogger, 'warn'>;
}): { stop(): void; idle(): Promise<void> } {
  const runs = workPlanRunRepo(deps.db);
  const handled = new Set<string>();
  let pending: Promise<void> = Promise.resolve();
  const off = deps.robotLink.on('state', ({ robotId, state }) => {
    const named = parseMoveOrderId(state.orderId);
    if (!named || handled.has(state.orderId)) return;
    if (state.nodeStates.length > 0 || state.edgeStates.length > 0 || state.driving) return;
    handled.add(state.orderId);
    if (handled.size > HANDLED_MAX) handled.delete(handled.values().next().value!);
    pending = pending
      .then(async () => {
        const row = await runs.openById(named.runId);
        if (!row || row.robot_id !== robotId) return;
        const move = moveOf(named.runId, JSON.parse(row.definition) as WorkPlanDefinition, state, undefined);
        if (move?.status === 'arrived') await checkStep(deps.db, deps.clock, named.runId, named.stepId);
      })
      .catch((err: unknown) => deps.log.warn({ err, orderId: state.orderId }, 'work plan move not checked'));
  });
  return { stop: off, idle: () => pending };
}
