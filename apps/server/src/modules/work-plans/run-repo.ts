import type { WorkPlanDefinition, WorkPlanMove, WorkPlanRun } from '@portal/contract';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { insertReturningId } from '../../db/rows.ts';
import { applyFilter, applyWhere, type ParsedFilter } from '../../lib/filter.ts';
import { filterSpec, ID_FIELD } from '../../lib/filter-spec.ts';
import { scopeWhere, type TenantScope } from '../../lib/scope.ts';
import type { WorkPlanRunTable } from './work-plan-tables.ts';

/** Allow-list of `GET /work-plan-runs?filter=`; newest first. */
export const workPlanRunFilter = filterSpec(
  'work_plan_runs',
  { ...ID_FIELD, workPlanId: 'integer', robotId: 'integer', flowRunId: 'integer', status: 'string', startedAt: 'date' },
  { defaultOrder: 'id DESC', defaultLimit: 20, maxLimit: 200 },
);

export type WorkPlanRunRow = Selectable<WorkPlanRunTable> & {
  plan_name: string;
  definition: string;
  plan_floor_id: number;
  robot_status: number;
};

/** `move`: the movement step the robot was sent to, as its state shows it (moves.ts). */
export const toWorkPlanRun = (r: WorkPlanRunRow, move: WorkPlanMove | null = null): WorkPlanRun => ({
  id: r.id,
  workPlanId: r.work_plan_id,
  workPlanName: r.plan_name,
  robotId: r.robot_id,
  flowRunId: r.flow_run_id,
  status: r.status === 'closed' ? 'closed' : 'open',
  currentStep: r.current_step,
  doneSteps: JSON.parse(r.done_steps) as string[],
  definition: JSON.parse(r.definition) as WorkPlanDefinition,
  startedAt: r.started_at,
  closedAt: r.closed_at,
  updatedAt: r.updated_at,
  move,
});

/** SQL of work plan runs: reads within the caller's scope (the robot's organization and building). */
export function workPlanRunRepo(db: Kysely<Database>) {
  const scoped = (p: TenantScope) =>
    db
      .selectFrom('work_plan_runs')
      .innerJoin('robots', 'robots.id', 'work_plan_runs.robot_id')
      .where((eb) => scopeWhere(p, eb, { organization: 'robots.organization_id', building: 'robots.building_id' }));
  const withPlan = (p: TenantScope) =>
    scoped(p)
      .innerJoin('work_plans', 'work_plans.id', 'work_plan_runs.work_plan_id')
      .selectAll('work_plan_runs')
      .select([
        'work_plans.name as plan_name',
        'work_plans.definition as definition',
        'work_plans.floor_id as plan_floor_id',
        'robots.status as robot_status',
      ]);
  return {
    byId: (p: TenantScope, id: number): Promise<WorkPlanRunRow | undefined> =>
      withPlan(p).where('work_plan_runs.id', '=', id).executeTakeFirst(),
    async page(p: TenantScope, f: ParsedFilter): Promise<{ rows: WorkPlanRunRow[]; total: number }> {
      const [rows, count] = await Promise.all([
        applyFilter(withPlan(p), f).execute(),
        applyWhere(scoped(p), f.where)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
    openOfRobot: (robotId: number, trx: Kysely<Database> = db) =>
      trx
        .selectFrom('work_plan_runs')
        .select('id')
        .where('robot_id', '=', robotId)
        .where('status', '=', 'open')
        .executeTakeFirst(),
    /** The run a flow run opened for a work plan (its last). */
    ofFlowRun: (flowRunId: number, workPlanId: number) =>
      db
        .selectFrom('work_plan_runs')
        .select(['id', 'status'])
        .where('flow_run_id', '=', flowRunId)
        .where('work_plan_id', '=', workPlanId)
        .orderBy('id', 'desc')
        .executeTakeFirst(),
    /** An open run with its plan's definition and floor (unscoped: the move watcher, the step check). */
    openById: (id: number, trx: Kysely<Database> = db) =>
      trx
        .selectFrom('work_plan_runs')
        .innerJoin('work_plans', 'work_plans.id', 'work_plan_runs.work_plan_id')
        .select([
          'work_plan_runs.id',
          'work_plan_runs.robot_id',
          'work_plan_runs.done_steps',
          'work_plans.definition as definition',
        ])
        .where('work_plan_runs.id', '=', id)
        .where('work_plan_runs.status', '=', 'open')
        .executeTakeFirst(),
    /** The open run a flow run launched (its `launchWorkPlan` step waits on it), if any. */
    openOfFlowRun: (flowRunId: number) =>
      db
        .selectFrom('work_plan_runs')
        .select('id')
        .where('flow_run_id', '=', flowRunId)
        .where('status', '=', 'open')
        .executeTakeFirst(),
    statusOf: async (id: number): Promise<string | undefined> =>
      (await db.selectFrom('work_plan_runs').select('status').where('id', '=', id).executeTakeFirst())?.status,
    plan: (id: number) =>
      db.selectFrom('work_plans').select(['id', 'building_id', 'status']).where('id', '=', id).executeTakeFirst(),
    robot: (id: number) =>
      db
        .selectFrom('robots')
        .select(['id', 'organization_id', 'building_id', 'floor_id'])
        .where('id', '=', id)
        .executeTakeFirst(),
    insert: (columns: Omit<Selectable<WorkPlanRunTable>, 'id' | 'closed_at'>, trx: Kysely<Database>): Promise<number> =>
      insertReturningId(trx, 'work_plan_runs', { ...columns, closed_at: null }),
    /** Writes the progress while the run is still open; false when it is not (closed meanwhile). */
    async progress(
      id: number,
      values: { current_step: number; done_steps: string; updated_at: string },
      trx: Kysely<Database>,
    ): Promise<boolean> {
      const r = await trx
        .updateTable('work_plan_runs')
        .set(values)
        .where('id', '=', id)
        .where('status', '=', 'open')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async close(id: number, now: string, trx: Kysely<Database>): Promise<boolean> {
      const r = await trx
        .updateTable('work_plan_runs')
        .set({ status: 'closed', closed_at: now, updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'open')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
  };
}
