import {
  flowOps,
  robotOps,
  scheduleOps,
  type Filter,
  type ScheduleInput,
  type ScheduleOccurrencesQuery,
  type UpdateScheduleBody,
} from '@portal/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { opPageQuery, opQuery, useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import {
  SCHEDULES_PER_PAGE,
  SCHEDULE_LOGS_PER_PAGE,
  scheduleListFilter,
  scheduleLogFilter,
  type ScheduleListParams,
  type ScheduleLogParams,
} from './list-params';

const keys = queryKeys.schedules;

/** GET /schedules?filter=: one page and the total. */
export const useSchedules = (params: ScheduleListParams) => {
  const filter = scheduleListFilter(params);
  return useQuery({
    ...opPageQuery(scheduleOps.listSchedules, keys.list(filter), { query: { filter } }),
    placeholderData: keepPreviousData,
  });
};
export { SCHEDULES_PER_PAGE, SCHEDULE_LOGS_PER_PAGE };

/** GET /schedule-logs?filter=: one page (newest first) and the total. */
export const useScheduleLogs = (params: ScheduleLogParams, page: number, timeZone: string | undefined) => {
  const filter = scheduleLogFilter(params, page, timeZone);
  return useQuery({
    ...opPageQuery(scheduleOps.listScheduleLogs, queryKeys.scheduleLogs.list(filter), { query: { filter } }),
    placeholderData: keepPreviousData,
  });
};

/** GET /schedules/occurrences for the calendar's visible window. */
export const useOccurrences = (query: ScheduleOccurrencesQuery | null) =>
  useQuery({
    ...opQuery(scheduleOps.listScheduleOccurrences, keys.options('occurrences', query), {
      query: query ?? { from: '', to: '' },
    }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });

export const useSchedule = (id: number) =>
  useQuery(opQuery(scheduleOps.getSchedule, keys.detail(id), { params: { id } }));

export const useCreateSchedule = () =>
  useOpMutation(scheduleOps.createSchedule, {
    args: (body: ScheduleInput) => ({ body }),
    invalidates: ['schedules', 'scheduleLogs'],
  });

/** PUT /schedules/:id with the version the change is based on (409 STALE_UPDATE when it changed since). */
export function useUpdateSchedule() {
  const qc = useQueryClient();
  return useOpMutation(scheduleOps.updateSchedule, {
    args: ({ id, body }: { id: number; body: UpdateScheduleBody }) => ({ params: { id }, body }),
    invalidates: ['schedules'],
    onSuccess: (s) => qc.setQueryData(keys.detail(s.id), s),
  });
}

export function useDeleteSchedule() {
  const qc = useQueryClient();
  return useOpMutation(scheduleOps.deleteSchedule, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['schedules'],
    onSuccess: (_, id) => qc.removeQueries({ queryKey: keys.detail(id) }),
  });
}

/** The robots in scope (optionally of one building), by name: names in lists, choices in forms. */
export const useRobotOptions = (buildingId: number | null = null) => {
  const filter: Filter = { ...(buildingId ? { where: { buildingId } } : {}), order: 'name ASC', limit: 1000 };
  return useQuery({
    ...opQuery(robotOps.listRobots, queryKeys.robots.options('schedules', filter), { query: { filter } }),
    staleTime: 60_000,
  });
};

/** The flows in scope (optionally of one building), in display order, with their definitions. */
export const useFlowOptions = (buildingId: number | null = null) => {
  const filter: Filter = {
    ...(buildingId ? { where: { buildingId } } : {}),
    order: 'displayOrder ASC',
    limit: 1000,
  };
  return useQuery({
    ...opQuery(flowOps.listFlows, queryKeys.flows.options('schedules', filter), { query: { filter } }),
    staleTime: 60_000,
  });
};
