import {
  HEALTH_PROBLEM_DETAIL,
  FLOW_RUN_STEPS_ANSWERED,
  walkSteps,
  type FlowDefinition,
  type FlowRun,
  type FlowRunDetail,
  type FlowStep,
} from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { parseFilter } from '../../lib/filter.ts';
import { isUniqueViolation } from '../organizations/admin-rules.ts';
import { robotRepo } from '../robots/robot-repo.ts';
import { flowRepo } from '../flows/flow-repo.ts';
import { requireControls, type ControlsLock } from '../teleop/controls.ts';
import { activityService } from '../activity/activity-service.ts';
import { expandCommands, type CommandBody } from './cursor.ts';
import { healthCheckBeforeRun } from './health-check.ts';
import { workPlanRunRepo } from '../work-plans/run-repo.ts';
import { initialCursor, type FlowRunner } from './runner.ts';
import { flowRunFilter, runRepo, toFlowRun, toFlowRunStep, type FlowRunRow } from './run-repo.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'robotLink'>;

const alreadyRunning = () =>
  new AppError('FLOW_ALREADY_RUNNING', 'A flow is already running on this robot', [
    { path: 'robotId', message: 'flowRun.alreadyRunning' },
  ]);

/**
 * Flow runs as the API sees them (docs/flow-runner.md): start with the rules (scope, the robot's
 * building, controls, one active run per robot, the health check), pause, resume and cancel from any
 * server (the owner carries a cancel out), and the record.
 */
export function flowRunService(ctx: Ctx, runner: FlowRunner, lock: ControlsLock) {
  const { db, clock, robotLink: link } = ctx;
  const repo = runRepo(db);
  const robots = robotRepo(db);
  const activity = activityService(ctx);

  async function load(p: Principal, id: number): Promise<FlowRunRow> {
    const row = await repo.inScope(p, id);
    if (!row) throw notFound('Flow run');
    return row;
  }

  /** The definition with the library commands it uses expanded (their current definitions). */
  async function expanded(def: FlowDefinition): Promise<FlowStep[]> {
    const ids = new Set<number>();
    for (const { step } of walkSteps(def.steps)) if (step.kind === 'command') ids.add(step.commandId);
    const bodies = new Map<number, CommandBody>();
    for (const c of await repo.commands([...ids])) {
      const d = JSON.parse(c.definition) as { steps?: FlowStep[] };
      const params = JSON.parse(c.parameters) as Array<{ name: string; preset?: string | number | boolean }>;
      bodies.set(c.id, {
        steps: d.steps ?? [],
        presets: Object.fromEntries(params.filter((x) => x.preset !== undefined).map((x) => [x.name, x.preset!])),
      });
    }
    return expandCommands(def.steps, bodies);
  }

  return {
    /**
     * `startedBy`: who is recorded as starting it (default the caller; null for a schedule);
     * `scheduleLogId`: the schedule log line that starts it, recorded with the run; `notBefore`: a
     * prepared start, begun at that instant (ISO, in the near future).
     */
    async start(
      p: Principal,
      flowId: number,
      robotId: number,
      opts: { startedBy?: number | null; scheduleLogId?: number; notBefore?: string } = {},
    ): Promise<FlowRun> {
      const startedBy = opts.startedBy === undefined ? p.operatorId : opts.startedBy;
      const flow = await flowRepo(db).byId(p, flowId);
      if (!flow) throw notFound('Flow');
      const robotRow = await robots.find(p, robotId);
      if (!robotRow) throw notFound('Robot');
      if (robotRow.building_id !== flow.building_id) {
        throw new AppError('VALIDATION_FAILED', 'The robot is not in the flow’s building', [
          { path: 'robotId', message: 'flowRun.robotBuilding' },
        ]);
      }
      requireControls(lock, robotId, p);
      if (await repo.activeOfRobot(robotId)) throw alreadyRunning();
      const health = await healthCheckBeforeRun(ctx, robotId, { id: flow.id, name: flow.name, floorId: flow.floor_id });
      if (!health.ok) {
        throw new AppError(
          'HEALTH_CHECK_FAILED',
          `The robot failed the health check: ${health.problems.join(', ')}`,
          health.problems.map(HEALTH_PROBLEM_DETAIL),
        );
      }
      const steps = await expanded(JSON.parse(flow.definition) as FlowDefinition);
      // A prepared start (a schedule's occurrence) is recorded as started at its due time, and its
      // first step waits for that instant (the runner holds it: RunCursor.notBefore).
      const at = opts.notBefore ?? clock().toISOString();
      let id: number;
      try {
        id = await repo.insert({
          organization_id: flow.organization_id,
          building_id: flow.building_id,
          floor_id: flow.floor_id,
          flow_id: flow.id,
          flow_name: flow.name,
          robot_id: robotId,
          robot_name: robotRow.name,
          definition: JSON.stringify(steps),
          status: 'running',
          started_at: at,
          ended_at: null,
          started_by: startedBy,
          ...(opts.scheduleLogId === undefined ? {} : { schedule_log_id: opts.scheduleLogId }),
          current_step_id: null,
          current_step_kind: null,
          error_code: null,
          message: null,
          cursor: JSON.stringify({
            ...initialCursor(flow.floor_id),
            ...(opts.notBefore === undefined ? {} : { notBefore: opts.notBefore }),
          }),
          owner: runner.instanceId,
          lease_until: runner.leaseUntil(),
        });
      } catch (err) {
        // Another request (on this or another server) started one first: the unique index says so.
        if (isUniqueViolation(err)) throw alreadyRunning();
        throw err;
      }
      const row = (await repo.byId(id))!;
      await activity.record({
        robotId,
        kind: 'flow',
        code: 'started',
        params: { runId: id, flowId: flow.id, flowName: flow.name, operatorId: startedBy },
      });
      runner.begin(row);
      return toFlowRun(row);
    },

    async list(p: Principal, rawFilter: string | undefined) {
      const f = parseFilter(rawFilter, flowRunFilter);
      if (f.fields || f.include.length > 0) {
        throw new AppError('BAD_FILTER', 'Invalid filter: fields and include are not supported for flow runs', [
          { path: f.fields ? 'fields' : 'include', message: 'not supported here; every run is answered whole' },
        ]);
      }
      const { rows, total } = await repo.page(p, f);
      return { items: rows.map(toFlowRun), total };
    },

    async get(p: Principal, id: number): Promise<FlowRunDetail> {
      const row = await load(p, id);
      const steps = (await repo.steps(id, FLOW_RUN_STEPS_ANSWERED)).map(toFlowRunStep);
      // The photos a step took, once stored (robot_photos.action_id).
      const actionIds = steps.flatMap((s) => (typeof s.data.actionId === 'string' ? [s.data.actionId] : []));
      const photos = new Map((await repo.photosOf(actionIds)).map((r) => [r.action_id, r.id]));
      for (const s of steps) {
        const photo = typeof s.data.actionId === 'string' ? photos.get(s.data.actionId) : undefined;
        if (photo !== undefined) s.data.photoId = photo;
      }
      return { ...toFlowRun(row), steps, definition: { version: 1, steps: JSON.parse(row.definition) as unknown } };
    },

    async pause(p: Principal, id: number): Promise<FlowRun> {
      const row = await load(p, id);
      if (row.status !== 'running') throw new AppError('CONFLICT', 'The run is not running');
      requireControls(lock, row.robot_id, p);
      await repo.update(id, { status: 'paused' });
      await link.command(row.robot_id, 'pause').catch(() => undefined);
      runner.setPaused(id, true);
      return toFlowRun((await repo.byId(id))!);
    },

    async resume(p: Principal, id: number): Promise<FlowRun> {
      const row = await load(p, id);
      if (row.status !== 'paused') throw new AppError('CONFLICT', 'The run is not paused');
      requireControls(lock, row.robot_id, p);
      // Paused by its launchWorkPlan step: it goes on when the operator closes the work plan, not before.
      if (await workPlanRunRepo(db).openOfFlowRun(id)) {
        throw new AppError('CONFLICT', 'The run waits until its work plan is closed', [
          { path: 'id', message: 'validation.workPlanOpen' },
        ]);
      }
      await repo.update(id, { status: 'running' });
      await link.command(row.robot_id, 'resume').catch(() => undefined);
      runner.setPaused(id, false);
      return toFlowRun((await repo.byId(id))!);
    },

    async cancel(p: Principal, id: number): Promise<FlowRun> {
      const row = await load(p, id);
      if (row.status !== 'running' && row.status !== 'paused') throw new AppError('CONFLICT', 'The run has ended');
      requireControls(lock, row.robot_id, p);
      await repo.update(id, { cancel_requested: 1 });
      await link.command(row.robot_id, 'cancel').catch(() => undefined);
      // The owner ends it: this server at once, another one at its next round.
      await runner.cancel(id);
      return toFlowRun((await repo.byId(id))!);
    },

    /** Manual driving took the robot: its running flow pauses (resumed by an operator). */
    async pauseForTeleop(robotId: number): Promise<void> {
      const row = await repo.activeOfRobot(robotId);
      if (!row || row.status !== 'running') return;
      await repo.update(row.id, { status: 'paused' });
      runner.setPaused(row.id, true);
    },
  };
}
export type FlowRunService = ReturnType<typeof flowRunService>;
