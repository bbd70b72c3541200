import {
  SCHEDULE_OCCURRENCES_MAX_DAYS,
  nextOccurrence,
  occurrencesBetween,
  type ErrorDetail,
  type Schedule,
  type ScheduleInput,
  type ScheduleLog,
  type ScheduleOccurrence,
  type ScheduleOccurrencesQuery,
  type UpdateScheduleBody,
} from '@portal/contract';
import type { Kysely } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { parseFilter } from '../../lib/filter.ts';
import { refuseFields, rowsInOrder } from '../../lib/list-answer.ts';
import { canSeeBuilding } from '../../lib/scope.ts';
import { expectVersioned, nextVersion } from '../../lib/versioned.ts';
import { isJapaneseHoliday } from './holidays.ts';
import { detailOf } from './log-details.ts';
import { logNamesRepo } from './log-names-repo.ts';
import {
  logResult,
  scheduleFilter,
  scheduleLogFilter,
  scheduleRepo,
  toSchedule,
  toScheduleLog,
  type ScheduleColumns,
  type ScheduleRow,
} from './schedule-repo.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit'>;

const invalid = (details: ErrorDetail[]) => new AppError('VALIDATION_FAILED', 'Invalid input', details);

/** The occurrence rules' view of a stored entry. */
export const entryOf = (r: ScheduleRow) => ({
  start: r.start_local,
  end: r.end_local,
  repeat: r.repeat as Schedule['repeat'],
  weekdays: JSON.parse(r.weekdays) as number[],
  repeatUntil: r.repeat_until,
  skipHolidays: r.skip_holidays === 1,
  exceptions: JSON.parse(r.exceptions) as Schedule['exceptions'],
});

/** The first due time of an entry from `now` on (an occurrence starting now is still due). */
export const firstDue = (r: ScheduleRow, now: Date): string | null =>
  r.enabled === 1
    ? (nextOccurrence(entryOf(r), r.time_zone, now, { inclusive: true, isHoliday: isJapaneseHoliday })?.startAt ?? null)
    : null;

/**
 * Schedule entries (docs/api-schedules.md). Reading and writing within tenancy: general operators
 * the entries of their building, administrators those of their scope. The flow and the robot must be
 * the caller's to see and of one building (400 on the field that is not), the robot live, the flow
 * enabled. A stale edit is 409 STALE_UPDATE. Saving computes the next due time (`next_due_at`) from
 * the saving time on: an occurrence already past is not started afterwards.
 */
export function scheduleService({ db, clock, audit }: Ctx) {
  const repo = scheduleRepo(db);
  const names = logNamesRepo(db);

  /** Log lines name a live robot or flow by its current name, a deleted one by the name kept on the line. */
  async function withNames(items: ScheduleLog[]): Promise<ScheduleLog[]> {
    const ids = (pick: (l: ScheduleLog) => number | null) => [
      ...new Set(items.map(pick).filter((id): id is number => id !== null)),
    ];
    const [robots, flows] = await Promise.all([
      names.liveRobots(ids((l) => l.robotId)),
      names.liveFlows(ids((l) => l.flowId)),
    ]);
    for (const l of items) {
      if (l.robotId !== null) {
        const name = robots.get(l.robotId);
        l.robotDeleted = name === undefined;
        l.robotName = name ?? l.robotName;
      }
      if (l.flowId !== null) {
        const name = flows.get(l.flowId);
        l.flowDeleted = name === undefined;
        l.flowName = name ?? l.flowName;
      }
    }
    return items;
  }

  const record = (
    p: Principal,
    action: 'schedule.create' | 'schedule.update' | 'schedule.delete',
    target: { id: number; organizationId: number },
    ip: string,
    detail: Record<string, unknown>,
    trx: Kysely<Database>,
  ) =>
    audit.record(
      {
        operatorId: p.operatorId,
        organizationId: target.organizationId,
        action,
        targetType: 'schedule',
        targetId: target.id,
        ip,
        detail,
      },
      trx,
    );

  async function load(p: Principal, id: number): Promise<ScheduleRow> {
    const row = await repo.byId(p, id);
    if (!row) throw notFound('Schedule');
    return row;
  }

  /** The building the flow and robot are of, both the caller's to use: 400 on the field that is not. */
  async function placement(p: Principal, body: ScheduleInput) {
    const flow = await repo.flow(body.flowId);
    const flowBuilding = flow ? await repo.building(flow.building_id) : undefined;
    if (!flow || !flowBuilding || !canSeeBuilding(p, { id: flowBuilding.id, organizationId: flow.organization_id }))
      throw invalid([{ path: 'flowId', message: 'validation.notFound' }]);
    const details: ErrorDetail[] = [];
    if (flow.enabled !== 1) details.push({ path: 'flowId', message: 'scheduleValidation.flowDisabled' });
    const robot = await repo.robot(body.robotId);
    if (
      !robot ||
      robot.deleted_at !== null ||
      !canSeeBuilding(p, { id: robot.building_id, organizationId: robot.organization_id })
    )
      details.push({ path: 'robotId', message: 'validation.notFound' });
    else if (robot.building_id !== flow.building_id)
      details.push({ path: 'robotId', message: 'scheduleValidation.robotBuilding' });
    if (details.length > 0) throw invalid(details);
    return { organizationId: flow.organization_id, buildingId: flow.building_id, timeZone: flowBuilding.time_zone };
  }

  const columns = (
    body: ScheduleInput,
    where: { organizationId: number; buildingId: number },
    nextDue: string | null,
  ): ScheduleColumns => ({
    organization_id: where.organizationId,
    building_id: where.buildingId,
    flow_id: body.flowId,
    robot_id: body.robotId,
    title: body.title,
    description: body.description,
    start_local: body.start,
    end_local: body.end,
    repeat: body.repeat,
    weekdays: JSON.stringify([...body.weekdays].sort((a, b) => a - b)),
    repeat_until: body.repeat === 'none' ? null : body.repeatUntil,
    priority: body.priority ? 1 : 0,
    skip_holidays: body.skipHolidays ? 1 : 0,
    enabled: body.enabled ? 1 : 0,
    exceptions: JSON.stringify(body.exceptions),
    next_due_at: nextDue,
  });

  /** The first due time of what is being saved. */
  const dueOf = (body: ScheduleInput, where: { organizationId: number; buildingId: number; timeZone: string }) => {
    const c = columns(body, where, null);
    return firstDue({ ...c, id: 0, created_at: '', updated_at: '', time_zone: where.timeZone }, clock());
  };

  return {
    async list(p: Principal, rawFilter: string | undefined): Promise<{ items: Schedule[]; total: number }> {
      const f = parseFilter(rawFilter, scheduleFilter);
      refuseFields(f);
      return rowsInOrder(await repo.page(p, f), (ids) => repo.byIds(p, ids), toSchedule);
    },

    async get(p: Principal, id: number): Promise<Schedule> {
      return toSchedule(await load(p, id));
    },

    async create(p: Principal, body: ScheduleInput, ip: string): Promise<Schedule> {
      const where = await placement(p, body);
      const now = clock().toISOString();
      const id = await db.transaction().execute(async (trx) => {
        const id = await repo.insert(columns(body, where, dueOf(body, where)), now, trx);
        await record(
          p,
          'schedule.create',
          { id, organizationId: where.organizationId },
          ip,
          { title: body.title },
          trx,
        );
        return id;
      });
      return toSchedule(await load(p, id));
    },

    async update(p: Principal, id: number, body: UpdateScheduleBody, ip: string): Promise<Schedule> {
      const current = await load(p, id);
      const where = await placement(p, body);
      if (where.organizationId !== current.organization_id)
        throw invalid([{ path: 'flowId', message: 'validation.notFound' }]);
      const version = nextVersion(clock(), current.updated_at);
      await db.transaction().execute(async (trx) => {
        const written = await repo.updateVersioned(
          id,
          body.updatedAt,
          { ...columns(body, where, dueOf(body, where)), updated_at: version },
          trx,
        );
        await expectVersioned(
          written,
          'schedule',
          () => repo.exists(id, trx),
          () => notFound('Schedule'),
        );
        await record(
          p,
          'schedule.update',
          { id, organizationId: where.organizationId },
          ip,
          { title: body.title },
          trx,
        );
      });
      return toSchedule(await load(p, id));
    },

    /** The log keeps the entry's lines (their `scheduleId` becomes null). */
    async remove(p: Principal, id: number, ip: string): Promise<void> {
      const current = await load(p, id);
      await db.transaction().execute(async (trx) => {
        if (!(await repo.remove(id, trx))) throw notFound('Schedule');
        await record(
          p,
          'schedule.delete',
          { id, organizationId: current.organization_id },
          ip,
          { title: current.title },
          trx,
        );
      });
    },

    /** The occurrences of the enabled entries in scope starting in `[from, to)`, with their log lines. */
    async occurrences(p: Principal, q: ScheduleOccurrencesQuery): Promise<ScheduleOccurrence[]> {
      const from = new Date(q.from);
      const to = new Date(q.to);
      const days = (to.getTime() - from.getTime()) / 86_400_000;
      if (!(days > 0)) throw invalid([{ path: 'to', message: 'scheduleValidation.endBeforeStart' }]);
      if (days > SCHEDULE_OCCURRENCES_MAX_DAYS) throw invalid([{ path: 'to', message: 'scheduleValidation.window' }]);
      const rows = await repo.forCalendar(p, q);
      const logs = await repo.logsOf(
        rows.map((r) => r.id),
        from.toISOString(),
        // A moved occurrence's log is keyed by its own start, which lies in the window too.
        to.toISOString(),
      );
      const logOf = new Map(logs.map((l) => [`${l.schedule_id}|${l.due_at}`, l]));
      const out: ScheduleOccurrence[] = [];
      for (const r of rows) {
        for (const o of occurrencesBetween(entryOf(r), r.time_zone, from, to, { isHoliday: isJapaneseHoliday })) {
          const log = logOf.get(`${r.id}|${o.startAt}`);
          out.push({
            scheduleId: r.id,
            title: r.title,
            buildingId: r.building_id,
            flowId: r.flow_id,
            robotId: r.robot_id,
            priority: r.priority === 1,
            ...o,
            log: log
              ? { id: log.id, result: logResult(log), reason: log.reason, detail: log.detail, ...detailOf(log) }
              : null,
          });
        }
      }
      return out.sort((a, b) => a.startAt.localeCompare(b.startAt) || a.scheduleId - b.scheduleId);
    },

    async logs(p: Principal, rawFilter: string | undefined): Promise<{ items: ScheduleLog[]; total: number }> {
      const f = parseFilter(rawFilter, scheduleLogFilter);
      refuseFields(f);
      const { rows, total } = await repo.logPage(p, f);
      return { items: await withNames(rows.map(toScheduleLog)), total };
    },
  };
}
export type ScheduleService = ReturnType<typeof scheduleService>;
