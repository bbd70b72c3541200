import type { FlowRun, FlowRunStep, FlowRunStatus, FlowStepResult } from '@portal/contract';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { insertReturningId } from '../../db/rows.ts';
import { applyFilter, applyWhere, type ParsedFilter } from '../../lib/filter.ts';
import { filterSpec, ID_FIELD, TENANT_FIELDS } from '../../lib/filter-spec.ts';
import { scopeWhere, type TenantScope } from '../../lib/scope.ts';
import type { FlowRunStepTable, FlowRunTable } from './run-tables.ts';

/** Allow-list of `GET /flow-runs?filter=`; newest first. */
export const flowRunFilter = filterSpec(
  'flow_runs',
  {
    ...ID_FIELD,
    robotId: 'integer',
    flowId: 'integer',
    floorId: 'integer',
    status: 'string',
    flowName: 'string',
    startedAt: 'date',
    endedAt: 'date',
    ...TENANT_FIELDS,
  },
  { defaultOrder: 'startedAt DESC', defaultLimit: 50, maxLimit: 200 },
);

export type FlowRunRow = Selectable<FlowRunTable>;
export type FlowRunStepRow = Selectable<FlowRunStepTable>;

export const toFlowRun = (r: FlowRunRow): FlowRun => ({
  id: r.id,
  flowId: r.flow_id,
  flowName: r.flow_name,
  robotId: r.robot_id,
  robotName: r.robot_name,
  organizationId: r.organization_id,
  buildingId: r.building_id,
  floorId: r.floor_id,
  status: r.status as FlowRunStatus,
  startedAt: r.started_at,
  endedAt: r.ended_at,
  startedBy: r.started_by,
  currentStepId: r.current_step_id,
  currentStepKind: r.current_step_kind,
  stepsStarted: r.steps_started,
  errorCode: r.error_code,
  message: r.message,
});

/** A step's data as answered: without the path driven (`track`, read by the report writer only). */
const answeredData = (text: string): FlowRunStep['data'] => {
  const { track: _track, ...data } = JSON.parse(text) as FlowRunStep['data'];
  return data;
};

export const toFlowRunStep = (r: FlowRunStepRow): FlowRunStep => ({
  id: r.id,
  seq: r.seq,
  stepId: r.step_id,
  kind: r.kind,
  pass: r.pass,
  attempt: r.attempt,
  result: r.result as FlowStepResult,
  startedAt: r.started_at,
  endedAt: r.ended_at,
  errorCode: r.error_code,
  message: r.message,
  data: answeredData(r.data),
});

const ACTIVE = ['running', 'paused'];

/** The SQL of flow runs and their steps (docs/flow-runner.md). */
export function runRepo(db: Kysely<Database>) {
  const scoped = (p: TenantScope) =>
    db
      .selectFrom('flow_runs')
      .where((eb) =>
        scopeWhere(p, eb, { organization: 'flow_runs.organization_id', building: 'flow_runs.building_id' }),
      );

  return {
    /** Inserts an active run; throws the database's unique violation when the robot has one already. */
    insert: (values: Insertable<FlowRunTable>) => insertReturningId(db, 'flow_runs', values),

    byId: (id: number) => db.selectFrom('flow_runs').selectAll().where('id', '=', id).executeTakeFirst(),

    inScope: (p: TenantScope, id: number) => scoped(p).selectAll().where('id', '=', id).executeTakeFirst(),

    activeOfRobot: (robotId: number) =>
      db
        .selectFrom('flow_runs')
        .selectAll()
        .where('robot_id', '=', robotId)
        .where('status', 'in', ACTIVE)
        .executeTakeFirst(),

    async page(p: TenantScope, f: ParsedFilter): Promise<{ rows: FlowRunRow[]; total: number }> {
      const [rows, count] = await Promise.all([
        applyFilter(scoped(p).selectAll(), f).execute(),
        applyWhere(
          scoped(p).select((eb) => eb.fn.countAll<number>().as('n')),
          f.where,
        ).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },

    /** Changes the run's columns (only while it is active unless `anyStatus`); answers whether it did. */
    async update(id: number, values: Partial<Omit<FlowRunRow, 'id'>>, opts: { anyStatus?: boolean } = {}) {
      let q = db.updateTable('flow_runs').set(values).where('id', '=', id);
      if (!opts.anyStatus) q = q.where('status', 'in', ACTIVE);
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /** Takes over an active run whose lease ran out (or that has no owner): one server wins. */
    async claim(id: number, owner: string, now: string, leaseUntil: string): Promise<boolean> {
      const r = await db
        .updateTable('flow_runs')
        .set({ owner, lease_until: leaseUntil })
        .where('id', '=', id)
        .where('status', 'in', ACTIVE)
        .where((eb) => eb.or([eb('owner', 'is', null), eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /** Active runs nobody holds: no owner, or the lease ran out before `now`. */
    orphans: (now: string) =>
      db
        .selectFrom('flow_runs')
        .select(['id', 'robot_id'])
        .where('status', 'in', ACTIVE)
        .where((eb) => eb.or([eb('owner', 'is', null), eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .orderBy('id')
        .limit(100)
        .execute(),

    /** Renews the leases of this owner's active runs; answers their status and cancel requests. */
    async renew(owner: string, ids: number[], leaseUntil: string) {
      if (ids.length === 0) return [];
      await db
        .updateTable('flow_runs')
        .set({ lease_until: leaseUntil })
        .where('owner', '=', owner)
        .where('id', 'in', ids)
        .where('status', 'in', ACTIVE)
        .execute();
      return db
        .selectFrom('flow_runs')
        .select(['id', 'status', 'owner', 'cancel_requested'])
        .where('id', 'in', ids)
        .execute();
    },

    /** Lets other servers take these runs at once (a server stopping cleanly). */
    release: (owner: string, ids: number[], now: string) =>
      ids.length === 0
        ? Promise.resolve()
        : db
            .updateTable('flow_runs')
            .set({ lease_until: now })
            .where('owner', '=', owner)
            .where('id', 'in', ids)
            .execute()
            .then(() => undefined),

    insertStep: (values: Insertable<FlowRunStepTable>) => insertReturningId(db, 'flow_run_steps', values),

    updateStep: (id: number, values: Partial<Omit<FlowRunStepRow, 'id' | 'run_id'>>) =>
      db
        .updateTable('flow_run_steps')
        .set(values)
        .where('id', '=', id)
        .execute()
        .then(() => undefined),

    /** Closes the steps of a run still marked running (a run that ended or was found after a restart). */
    closeOpenSteps: (runId: number, result: FlowStepResult, at: string) =>
      db
        .updateTable('flow_run_steps')
        .set({ result, ended_at: at })
        .where('run_id', '=', runId)
        .where('result', '=', 'running')
        .execute()
        .then(() => undefined),

    lastStep: (runId: number) =>
      db
        .selectFrom('flow_run_steps')
        .selectAll()
        .where('run_id', '=', runId)
        .orderBy('seq', 'desc')
        .limit(1)
        .executeTakeFirst(),

    /** The newest `limit` steps, in order. */
    async steps(runId: number, limit: number): Promise<FlowRunStepRow[]> {
      const rows = await db
        .selectFrom('flow_run_steps')
        .selectAll()
        .where('run_id', '=', runId)
        .orderBy('seq', 'desc')
        .limit(limit)
        .execute();
      return rows.reverse();
    },

    /** The photos stored for takePhoto actions of a run (robot_photos.action_id). */
    photosOf: (actionIds: string[]) =>
      actionIds.length === 0
        ? Promise.resolve([])
        : db.selectFrom('robot_photos').select(['id', 'action_id']).where('action_id', 'in', actionIds).execute(),

    /** The stored photo of one takePhoto action of a robot (a meterCheck step waits for it). */
    photo: (robotId: number, actionId: string) =>
      db
        .selectFrom('robot_photos')
        .select(['action_id', 'file_key'])
        .where('robot_id', '=', robotId)
        .where('action_id', '=', actionId)
        .executeTakeFirst(),
    /** A check item's place (a meterCheck step drives there). */
    checkItem: (id: number) =>
      db
        .selectFrom('check_items')
        .select(['id', 'name', 'building_id', 'floor_id', 'x', 'y', 'direction', 'definition'])
        .where('id', '=', id)
        .executeTakeFirst(),

    /** A flow to run, with the robot's row (both unscoped: the service checks scope). */
    flow: (id: number) => db.selectFrom('flows').selectAll().where('id', '=', id).executeTakeFirst(),
    robot: (id: number) =>
      db
        .selectFrom('robots')
        .select(['id', 'name', 'organization_id', 'building_id', 'serial_no'])
        .where('id', '=', id)
        .executeTakeFirst(),
    commands: (ids: number[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db.selectFrom('commands').select(['id', 'definition', 'parameters']).where('id', 'in', ids).execute(),
    speechText: (id: number, buildingId: number) =>
      db
        .selectFrom('speech_texts')
        .select(['text', 'language'])
        .where('id', '=', id)
        .where('building_id', '=', buildingId)
        .executeTakeFirst(),
    /** The floor's current map revision (0 when never saved): the runner keeps a parsed map per revision. */
    mapRevision: async (floorId: number): Promise<number> =>
      (
        await db
          .selectFrom('floor_map_revisions')
          .select('revision')
          .where('floor_id', '=', floorId)
          .orderBy('revision', 'desc')
          .limit(1)
          .executeTakeFirst()
      )?.revision ?? 0,
    floors: (buildingId: number) =>
      db.selectFrom('floors').select(['id', 'index', 'name']).where('building_id', '=', buildingId).execute(),
  };
}
export type RunRepo = ReturnType<typeof runRepo>;
