import type { Schedule, ScheduleException, ScheduleLog, ScheduleLogResult, ScheduleRepeat } from '@portal/contract';
import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Dialect } from '../../db/migrator.ts';
import type { Database } from '../../db/schema.ts';
import { deleteById, insertReturningId, updateVersioned } from '../../db/rows.ts';
import { applyFilter, applyWhere, type ParsedFilter } from '../../lib/filter.ts';
import { filterSpec, ID_FIELD, TENANT_FIELDS, TIMESTAMP_FIELDS } from '../../lib/filter-spec.ts';
import { scopeWhere, type TenantScope } from '../../lib/scope.ts';
import { detailOf } from './log-details.ts';
import type { ScheduleLogTable, ScheduleTable } from './schedule-tables.ts';

/** Allow-list of `GET /schedules?filter=`; ordered by title. */
export const scheduleFilter = filterSpec(
  'schedules',
  {
    ...ID_FIELD,
    title: 'string',
    robotId: 'integer',
    flowId: 'integer',
    repeat: 'string',
    enabled: 'boolean',
    priority: 'boolean',
    nextDueAt: 'date',
    ...TENANT_FIELDS,
    ...TIMESTAMP_FIELDS,
  },
  { defaultOrder: 'title ASC', defaultLimit: 50, maxLimit: 500 },
);

/** Allow-list of `GET /schedule-logs?filter=`; newest due first. */
export const scheduleLogFilter = filterSpec(
  'schedule_logs',
  {
    ...ID_FIELD,
    scheduleId: 'integer',
    title: 'string',
    robotId: 'integer',
    flowId: 'integer',
    flowRunId: 'integer',
    result: 'string',
    reason: 'string',
    dueAt: 'date',
    startedAt: 'date',
    endedAt: 'date',
    ...TENANT_FIELDS,
  },
  { defaultOrder: 'dueAt DESC', defaultLimit: 50, maxLimit: 200 },
);

export type ScheduleRow = Selectable<ScheduleTable> & { time_zone: string };
export type ScheduleLogRow = Selectable<ScheduleLogTable>;
export type ScheduleColumns = Omit<Selectable<ScheduleTable>, 'id' | 'created_at' | 'updated_at'>;

export const toSchedule = (r: ScheduleRow): Schedule => ({
  id: r.id,
  organizationId: r.organization_id,
  buildingId: r.building_id,
  timeZone: r.time_zone,
  title: r.title,
  description: r.description,
  flowId: r.flow_id,
  robotId: r.robot_id,
  start: r.start_local,
  end: r.end_local,
  repeat: r.repeat as ScheduleRepeat,
  weekdays: JSON.parse(r.weekdays) as number[],
  repeatUntil: r.repeat_until,
  priority: r.priority === 1,
  skipHolidays: r.skip_holidays === 1,
  enabled: r.enabled === 1,
  exceptions: JSON.parse(r.exceptions) as ScheduleException[],
  nextAt: r.next_due_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** A claimed line whose run is being started reads as running. */
export const logResult = (r: Pick<ScheduleLogRow, 'result'>): ScheduleLogResult =>
  (r.result === 'pending' ? 'running' : r.result) as ScheduleLogResult;

export const toScheduleLog = (r: ScheduleLogRow): ScheduleLog => ({
  id: r.id,
  scheduleId: r.schedule_id,
  title: r.title,
  buildingId: r.building_id,
  robotId: r.robot_id,
  flowId: r.flow_id,
  // The names kept on the line; the service answers a live robot's or flow's current name.
  robotName: r.robot_name,
  flowName: r.flow_name,
  robotDeleted: false,
  flowDeleted: false,
  flowRunId: r.flow_run_id,
  dueAt: r.due_at,
  startedAt: r.started_at,
  endedAt: r.ended_at,
  result: logResult(r),
  reason: r.reason,
  detail: r.detail,
  ...detailOf(r),
});

/** SQL of schedules and their log. Reads are within the caller's scope unless said otherwise. */
export function scheduleRepo(db: Kysely<Database>, dialect: Dialect = 'sqlite') {
  const scoped = (p: TenantScope, trx: Kysely<Database> = db) =>
    trx
      .selectFrom('schedules')
      .where((eb) =>
        scopeWhere(p, eb, { organization: 'schedules.organization_id', building: 'schedules.building_id' }),
      );
  const withZone = (p: TenantScope, trx: Kysely<Database> = db) =>
    scoped(p, trx)
      .innerJoin('buildings', 'buildings.id', 'schedules.building_id')
      .selectAll('schedules')
      .select('buildings.time_zone');
  const logsScoped = (p: TenantScope) =>
    db
      .selectFrom('schedule_logs')
      .where((eb) =>
        scopeWhere(p, eb, { organization: 'schedule_logs.organization_id', building: 'schedule_logs.building_id' }),
      );

  return {
    byId: (p: TenantScope, id: number, trx?: Kysely<Database>): Promise<ScheduleRow | undefined> =>
      withZone(p, trx).where('schedules.id', '=', id).executeTakeFirst(),
    byIds: (p: TenantScope, ids: number[]): Promise<ScheduleRow[]> =>
      withZone(p).where('schedules.id', 'in', ids).execute(),
    async page(p: TenantScope, f: ParsedFilter): Promise<{ ids: number[]; total: number }> {
      const [idRows, count] = await Promise.all([
        applyFilter(scoped(p).select('id'), f).execute(),
        applyWhere(scoped(p), f.where)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { ids: idRows.map((r) => r.id), total: Number(count.n) };
    },
    /** The enabled entries of the scope for the calendar (optionally one building, robot or flow). */
    forCalendar: (p: TenantScope, where: { buildingId?: number; robotId?: number; flowId?: number }) =>
      withZone(p)
        .where('schedules.enabled', '=', 1)
        .$if(where.buildingId !== undefined, (q) => q.where('schedules.building_id', '=', where.buildingId!))
        .$if(where.robotId !== undefined, (q) => q.where('schedules.robot_id', '=', where.robotId!))
        .$if(where.flowId !== undefined, (q) => q.where('schedules.flow_id', '=', where.flowId!))
        .orderBy('schedules.id')
        .execute(),
    exists: async (id: number, trx: Kysely<Database> = db) =>
      (await trx.selectFrom('schedules').select('id').where('id', '=', id).executeTakeFirst()) !== undefined,
    insert: (columns: ScheduleColumns, now: string, trx: Kysely<Database>): Promise<number> =>
      insertReturningId(trx, 'schedules', { ...columns, created_at: now, updated_at: now }),
    updateVersioned: (
      id: number,
      base: string,
      columns: ScheduleColumns & { updated_at: string },
      trx: Kysely<Database>,
    ): Promise<bigint> => updateVersioned(trx, 'schedules', id, base, columns),
    remove: (id: number, trx: Kysely<Database>): Promise<boolean> => deleteById(trx, 'schedules', id),

    // ------------------------------------------------------------ what an entry names
    building: (id: number) =>
      db.selectFrom('buildings').select(['id', 'organization_id', 'time_zone']).where('id', '=', id).executeTakeFirst(),
    flow: (id: number) =>
      db
        .selectFrom('flows')
        .select(['id', 'organization_id', 'building_id', 'floor_id', 'enabled', 'name', 'definition'])
        .where('id', '=', id)
        .executeTakeFirst(),
    /** A robot, live or deleted (the dispatcher says which). */
    robot: (id: number) =>
      db
        .selectFrom('robots')
        .select(['id', 'organization_id', 'building_id', 'deleted_at', 'name'])
        .where('id', '=', id)
        .executeTakeFirst(),

    // ------------------------------------------------------------ the log
    async logPage(p: TenantScope, f: ParsedFilter): Promise<{ rows: ScheduleLogRow[]; total: number }> {
      const [rows, count] = await Promise.all([
        applyFilter(logsScoped(p).selectAll(), f).execute(),
        applyWhere(
          logsScoped(p).select((eb) => eb.fn.countAll<number>().as('n')),
          f.where,
        ).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
    /** The log lines of these entries due in `[from, to)`. */
    logsOf: async (scheduleIds: number[], from: string, to: string): Promise<ScheduleLogRow[]> =>
      scheduleIds.length === 0
        ? []
        : db
            .selectFrom('schedule_logs')
            .selectAll()
            .where('schedule_id', 'in', scheduleIds)
            .where('due_at', '>=', from)
            .where('due_at', '<', to)
            .execute(),
    logById: (id: number, trx: Kysely<Database> = db) =>
      trx.selectFrom('schedule_logs').selectAll().where('id', '=', id).executeTakeFirst(),

    // ------------------------------------------------------------ the dispatcher
    /**
     * Enabled entries whose next occurrence is due, oldest due first, read in a claim's transaction.
     * On PostgreSQL the entries are locked and those another server's claim has locked are skipped,
     * so two servers claim different batches at once instead of queueing on the same rows (SQLite
     * has one writer at a time).
     */
    due: (now: string, limit: number, trx: Kysely<Database>): Promise<ScheduleRow[]> => {
      const q = trx
        .selectFrom('schedules')
        .innerJoin('buildings', 'buildings.id', 'schedules.building_id')
        .selectAll('schedules')
        .select('buildings.time_zone')
        .where('schedules.next_due_at', '<=', now)
        .where('schedules.enabled', '=', 1)
        .orderBy('schedules.next_due_at')
        .orderBy('schedules.id')
        .limit(limit);
      return (dialect === 'postgres' ? q.forUpdate('schedules').skipLocked() : q).execute();
    },
    /** The entry's next due time for a caller that read it: written only while it is still `due`. */
    async advance(id: number, due: string, following: string | null, trx: Kysely<Database>): Promise<boolean> {
      const r = await trx
        .updateTable('schedules')
        .set({ next_due_at: following })
        .where('id', '=', id)
        .where('next_due_at', '=', due)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    setNextDue: async (id: number, next: string | null, trx: Kysely<Database> = db) => {
      await trx.updateTable('schedules').set({ next_due_at: next }).where('id', '=', id).execute();
    },
    insertLog: (values: Insertable<ScheduleLogTable>, trx: Kysely<Database>) =>
      insertReturningId(trx, 'schedule_logs', values),
    /** Changes a log line; with `whileResult`, only while its result is still that. */
    async updateLog(
      id: number,
      values: Updateable<ScheduleLogTable>,
      whileResult?: string,
      trx: Kysely<Database> = db,
    ): Promise<boolean> {
      let q = trx.updateTable('schedule_logs').set(values).where('id', '=', id);
      if (whileResult) q = q.where('result', '=', whileResult);
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** Marks the start attempt of a claimed line, only while this server still holds it (not taken over). */
    async markStarting(id: number, owner: string, startedAt: string, leaseUntil: string): Promise<boolean> {
      const r = await db
        .updateTable('schedule_logs')
        .set({ started_at: startedAt, lease_until: leaseUntil })
        .where('id', '=', id)
        .where('result', '=', 'pending')
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /**
     * Claimed lines whose claimer's lease ran out (killed between claim and start); with `dead`, also
     * the lines another instance claimed before `dead.before` (the sole server's dead incarnations,
     * see the dispatcher).
     */
    abandoned: (now: string, dead?: { notOwner: string; before: string }): Promise<ScheduleLogRow[]> =>
      db
        .selectFrom('schedule_logs')
        .selectAll()
        .where('result', '=', 'pending')
        .where((eb) =>
          eb.or([
            eb('lease_until', 'is', null),
            eb('lease_until', '<', now),
            ...(dead === undefined
              ? []
              : [eb.and([eb('lease_owner', '!=', dead.notOwner), eb('created_at', '<', dead.before)])]),
          ]),
        )
        .orderBy('due_at')
        .limit(1000)
        .execute(),
    /**
     * Takes a claimed line over from a claimer whose lease ran out: one server wins. `fromOwner`: the
     * line is taken from that (dead) holder whatever its lease says.
     */
    async takeOver(
      id: number,
      owner: string,
      now: string,
      leaseUntil: string,
      fromOwner?: string | null,
    ): Promise<boolean> {
      const r = await db
        .updateTable('schedule_logs')
        .set({ lease_owner: owner, lease_until: leaseUntil })
        .where('id', '=', id)
        .where('result', '=', 'pending')
        .where((eb) =>
          eb.or([
            eb('lease_until', 'is', null),
            eb('lease_until', '<', now),
            ...(fromOwner ? [eb('lease_owner', '=', fromOwner)] : []),
          ]),
        )
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** Running lines with their run's status (to follow the run's end). */
    running: () =>
      db
        .selectFrom('schedule_logs')
        .innerJoin('flow_runs', 'flow_runs.id', 'schedule_logs.flow_run_id')
        .select([
          'schedule_logs.id',
          'schedule_logs.end_at',
          'schedule_logs.flow_id',
          'flow_runs.id as run_id',
          'flow_runs.status',
          'flow_runs.ended_at',
          'flow_runs.error_code',
          'flow_runs.message',
          'flow_runs.definition',
        ])
        .where('schedule_logs.result', '=', 'running')
        .limit(500)
        .execute(),
    /** The other claimed lines due at the same instant on one robot (the priority rule). */
    rivals: (robotId: number, dueAt: string, exceptId: number) =>
      db
        .selectFrom('schedule_logs')
        .leftJoin('schedules', 'schedules.id', 'schedule_logs.schedule_id')
        .select([
          'schedule_logs.id',
          'schedule_logs.result',
          'schedule_logs.priority',
          'schedule_logs.schedule_id',
          'schedule_logs.title',
          'schedules.created_at',
        ])
        .where('schedule_logs.robot_id', '=', robotId)
        .where('schedule_logs.due_at', '=', dueAt)
        .where('schedule_logs.id', '!=', exceptId)
        .execute(),
    createdAt: (id: number) =>
      db.selectFrom('schedules').select(['created_at']).where('id', '=', id).executeTakeFirst(),
    /** The run a schedule started on the robot since `since` (a claimer died before noting it). */
    runStartedSince: (robotId: number, flowId: number | null, since: string) =>
      db
        .selectFrom('flow_runs')
        .select(['id', 'started_at'])
        .where('robot_id', '=', robotId)
        .where('flow_id', '=', flowId ?? -1)
        .where('started_by', 'is', null)
        .where('started_at', '>=', since)
        .orderBy('id')
        .executeTakeFirst(),
    /**
     * Claims a batch of due occurrences in one statement: each entry's `next_due_at` moves from its
     * `due` to its `following` only while it is still `due` (another server's claim makes it 0 rows).
     * Answers the ids won.
     */
    async advanceMany(
      claims: ReadonlyArray<{ id: number; due: string; following: string | null }>,
      trx: Kysely<Database>,
    ): Promise<number[]> {
      if (claims.length === 0) return [];
      const whenDue = sql.join(
        claims.map((c) => sql`WHEN ${c.id} THEN ${c.due}`),
        sql` `,
      );
      const whenNext = sql.join(
        claims.map((c) => sql`WHEN ${c.id} THEN ${c.following}`),
        sql` `,
      );
      const rows = await trx
        .updateTable('schedules')
        .set({ next_due_at: sql<string | null>`CASE id ${whenNext} END` })
        .where(
          'id',
          'in',
          claims.map((c) => c.id),
        )
        .where('next_due_at', '=', sql<string>`CASE id ${whenDue} END`)
        .returning('id')
        .execute();
      return rows.map((r) => r.id);
    },
    /** Inserts claimed occurrences' log lines in one statement; a line already there (another server's) is skipped. */
    insertLogs: (values: Insertable<ScheduleLogTable>[], trx: Kysely<Database>): Promise<ScheduleLogRow[]> =>
      values.length === 0
        ? Promise.resolve([])
        : trx
            .insertInto('schedule_logs')
            .values(values)
            .onConflict((oc) => oc.columns(['schedule_id', 'due_at']).doNothing())
            .returningAll()
            .execute(),
    /**
     * Fails pending lines, a statement per group (the priority losers of a batch, grouped by their
     * winner), all in one transaction: on PostgreSQL each statement on its own was a commit and its
     * flush to disk, and a burst of 1,000 robots has 1,000 groups.
     */
    async failMany(groups: ReadonlyArray<{ ids: number[]; values: Updateable<ScheduleLogTable> }>): Promise<void> {
      const todo = groups.filter((g) => g.ids.length > 0);
      if (todo.length === 0) return;
      await db.transaction().execute(async (trx) => {
        for (const { ids, values } of todo)
          await trx
            .updateTable('schedule_logs')
            .set(values)
            .where('id', 'in', ids)
            .where('result', '=', 'pending')
            .execute();
      });
    },
    /** Entries and claimed lines due at these instants on these robots (the priority rule, for a batch). */
    contenders: async (robotIds: number[], dues: string[]) => ({
      unclaimed: await db
        .selectFrom('schedules')
        .select(['id', 'robot_id', 'next_due_at', 'priority', 'created_at', 'title'])
        .where('robot_id', 'in', robotIds)
        .where('next_due_at', 'in', dues)
        .where('enabled', '=', 1)
        .execute(),
      claimed: await db
        .selectFrom('schedule_logs')
        .leftJoin('schedules', 'schedules.id', 'schedule_logs.schedule_id')
        .select([
          'schedule_logs.id',
          'schedule_logs.robot_id',
          'schedule_logs.due_at',
          'schedule_logs.priority',
          'schedule_logs.schedule_id',
          'schedule_logs.title',
          'schedules.created_at',
        ])
        .where('schedule_logs.robot_id', 'in', robotIds)
        .where('schedule_logs.due_at', 'in', dues)
        .execute(),
    }),
    /** Flows and robots by id (a batch of claimed lines). */
    flowsByIds: (ids: number[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('flows')
            .select(['id', 'organization_id', 'building_id', 'floor_id', 'enabled', 'name', 'definition'])
            .where('id', 'in', ids)
            .execute(),
    robotsByIds: (ids: number[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('robots')
            .select(['id', 'organization_id', 'building_id', 'deleted_at', 'name'])
            .where('id', 'in', ids)
            .execute(),
    /** An entry as it is now with its building's zone (a line claimed ahead is checked against it at its due time). */
    entryNow: (id: number) =>
      db
        .selectFrom('schedules')
        .innerJoin('buildings', 'buildings.id', 'schedules.building_id')
        .selectAll('schedules')
        .select('buildings.time_zone')
        .where('schedules.id', '=', id)
        .executeTakeFirst(),
    /** Removes a pending line whose entry no longer has its occurrence (edited after the claim). */
    async dropPending(id: number): Promise<boolean> {
      const r = await db
        .deleteFrom('schedule_logs')
        .where('id', '=', id)
        .where('result', '=', 'pending')
        .executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },
    /** Enabled entries of a robot due at this instant (not claimed yet, they will be). */
    dueOnRobot: (robotId: number, dueAt: string) =>
      db
        .selectFrom('schedules')
        .select(['id', 'priority', 'created_at', 'title'])
        .where('robot_id', '=', robotId)
        .where('next_due_at', '=', dueAt)
        .where('enabled', '=', 1)
        .execute(),
  };
}
export type ScheduleRepo = ReturnType<typeof scheduleRepo>;
