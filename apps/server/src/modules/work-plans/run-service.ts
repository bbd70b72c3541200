import type { RobotStatusCodeValue, StartWorkPlanRunBody, WorkPlanDefinition, WorkPlanRun } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { parseFilter } from '../../lib/filter.ts';
import { refuseFields } from '../../lib/list-answer.ts';
import { robotInScope } from '../../lib/scope.ts';
import { mapService } from '../maps/map-service.ts';
import { navigationService } from '../maps/navigation-service.ts';
import type { ControlsLock } from '../teleop/controls.ts';
import { workPlanRepo } from './work-plan-repo.ts';
import { checkStep, moveOf, moveOrderId } from './moves.ts';
import { toWorkPlanRun, workPlanRunFilter, workPlanRunRepo, type WorkPlanRunRow } from './run-repo.ts';

type Ctx = Pick<AppContext, 'db' | 'clock'>;
type MoveCtx = Pick<AppContext, 'db' | 'dialect' | 'clock' | 'audit' | 'config' | 'fileStore' | 'robotLink' | 'log'>;

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_FAILED', `Invalid ${path}`, [{ path, message }]);

/**
 * Work plan runs (docs/api-work-plans.md "Runs"). Anyone who may see the robot and the work plan
 * runs it (operating is not managing). Starting: the plan is enabled and of the robot's building,
 * and the robot has no other open run (409 CONFLICT). Confirming a step: a step of the plan, while
 * the run is open (a closed run is 409). Another tenant's run or robot is 404.
 */
export function workPlanRunService(ctx: MoveCtx, lock: ControlsLock) {
  const { db, clock, robotLink: link } = ctx;
  const runs = workPlanRunRepo(db);
  const plans = workPlanRepo(db);
  // Movement steps go through the goto order path (controls, floor, busy robot, audit).
  const navigation = navigationService(ctx, mapService(ctx), lock);

  /** The run as answered, with its move as the robot's state shows it (open runs only). */
  const answer = (row: WorkPlanRunRow): WorkPlanRun => {
    if (row.status !== 'open') return toWorkPlanRun(row);
    const live = link.live({ id: row.robot_id, status: row.robot_status as RobotStatusCodeValue });
    const state = live.online ? link.details(row.robot_id)?.state : null;
    return toWorkPlanRun(row, moveOf(row.id, JSON.parse(row.definition) as WorkPlanDefinition, state, live.lastOrder));
  };

  async function load(p: Principal, id: number) {
    const row = await runs.byId(p, id);
    if (!row) throw notFound('Work plan run');
    return row;
  }
  const closedConflict = () => new AppError('CONFLICT', 'The work plan run is closed');

  return {
    async list(p: Principal, rawFilter: string | undefined): Promise<{ items: WorkPlanRun[]; total: number }> {
      const f = parseFilter(rawFilter, workPlanRunFilter);
      refuseFields(f);
      const { rows, total } = await runs.page(p, f);
      return { items: rows.map(answer), total };
    },

    async get(p: Principal, id: number): Promise<WorkPlanRun> {
      return answer(await load(p, id));
    },

    async start(p: Principal, body: StartWorkPlanRunBody, flowRunId: number | null = null): Promise<WorkPlanRun> {
      const robot = await runs.robot(body.robotId);
      if (!robot || !robotInScope(p, { organizationId: robot.organization_id, buildingId: robot.building_id }))
        throw invalid('robotId', 'validation.notFound');
      const plan = await plans.byId(p, body.workPlanId);
      if (!plan) throw invalid('workPlanId', 'validation.notFound');
      if (plan.building_id !== robot.building_id) throw invalid('workPlanId', 'workPlanValidation.otherBuilding');
      if (plan.status !== 1) throw invalid('workPlanId', 'workPlanValidation.disabled');
      const now = clock().toISOString();
      const id = await db.transaction().execute(async (trx) => {
        if (await runs.openOfRobot(robot.id, trx))
          throw new AppError('CONFLICT', 'The robot already has an open work plan');
        return runs.insert(
          {
            organization_id: robot.organization_id,
            work_plan_id: plan.id,
            robot_id: robot.id,
            flow_run_id: flowRunId,
            status: 'open',
            current_step: 0,
            done_steps: '[]',
            started_by: p.operatorId,
            started_at: now,
            updated_at: now,
          },
          trx,
        );
      });
      return answer(await load(p, id));
    },

    /** The operator confirms a step: it is checked, and the current step is the first one not yet confirmed. */
    async confirm(p: Principal, id: number, stepId: string): Promise<WorkPlanRun> {
      const row = await load(p, id);
      if (row.status !== 'open') throw closedConflict();
      const def = JSON.parse(row.definition) as WorkPlanDefinition;
      if (!def.steps.some((s) => s.id === stepId)) throw invalid('stepId', 'validation.notFound');
      if (!(await checkStep(db, clock, id, stepId))) throw closedConflict();
      return answer(await load(p, id));
    },

    /**
     * Sends the robot to a movement step's waypoint (on the plan's floor) as a goto does: the robot
     * online on that floor and not busy, the controls not held by another operator (TELEOP_LOCKED).
     * The step is checked when the robot arrives (moves.ts); the operator may still confirm it by hand.
     */
    async move(p: Principal, id: number, stepId: string, ip: string): Promise<WorkPlanRun> {
      const row = await load(p, id);
      if (row.status !== 'open') throw closedConflict();
      const def = JSON.parse(row.definition) as WorkPlanDefinition;
      const step = def.steps.find((s) => s.id === stepId);
      if (!step) throw invalid('stepId', 'validation.notFound');
      const waypointId = step.main.kind === 'moveToWaypoint' ? step.main.waypointId : null;
      if (step.type !== 'move' || waypointId === null || waypointId === undefined)
        throw invalid('stepId', 'workPlanValidation.notMovable');
      const orderId = moveOrderId(id, stepId);
      await navigation.goto(p, row.robot_id, { floorId: row.plan_floor_id, waypointId }, ip, {
        orderId,
        detail: { workPlanRunId: id, stepId },
      });
      return toWorkPlanRun(await load(p, id), { stepId, orderId, status: 'moving', errorCode: null, message: null });
    },

    async close(p: Principal, id: number): Promise<WorkPlanRun> {
      const row = await load(p, id);
      if (row.status !== 'open') throw closedConflict();
      const ok = await db.transaction().execute((trx) => runs.close(id, clock().toISOString(), trx));
      if (!ok) throw closedConflict();
      return answer(await load(p, id));
    },
  };
}

/**
 * The flow runner's side (a `launchWorkPlan` step): opens the plan on the robot for a flow run, or
 * answers the run already opened for it (a runner resuming after a restart opens no second one);
 * and whether a run is closed. The plan must be enabled and of the robot's building, and the robot
 * free of another open run.
 */
export function workPlanLauncher({ db, clock }: Ctx) {
  const runs = workPlanRunRepo(db);
  return {
    async launch(robotId: number, workPlanId: number, flowRunId: number): Promise<number> {
      const existing = await runs.ofFlowRun(flowRunId, workPlanId);
      if (existing?.status === 'open') return existing.id;
      const robot = await runs.robot(robotId);
      const plan = await runs.plan(workPlanId);
      if (!robot || !plan || plan.building_id !== robot.building_id)
        throw new Error('The work plan is not of the robot’s building');
      if (plan.status !== 1) throw new Error('The work plan is disabled');
      const now = clock().toISOString();
      return db.transaction().execute(async (trx) => {
        if (await runs.openOfRobot(robotId, trx)) throw new Error('The robot already has an open work plan');
        return runs.insert(
          {
            organization_id: robot.organization_id,
            work_plan_id: plan.id,
            robot_id: robotId,
            flow_run_id: flowRunId,
            status: 'open',
            current_step: 0,
            done_steps: '[]',
            started_by: null,
            started_at: now,
            updated_at: now,
          },
          trx,
        );
      });
    },
    isClosed: async (id: number): Promise<boolean> => (await runs.statusOf(id)) !== 'open',
  };
}
