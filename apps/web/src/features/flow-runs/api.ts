import {
  ACTIVE_RUN_STATUSES,
  flowOps,
  flowRunOps,
  floorOps,
  isActiveRun,
  mapOps,
  robotOps,
  type Filter,
  type FlowRun,
  type FlowRunDetail,
} from '@portal/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { opPageQuery, opQuery, useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

const keys = queryKeys.flowRuns;

/** How often an active run's progress is read (ms); a final run is not read again. */
export const RUN_POLL_MS = 1000;
/** How often a robot's page looks for a run started elsewhere (a schedule, another operator). */
export const ACTIVE_RUN_LOOKUP_MS = 5000;

/** The polling interval of a run's detail: every second while it is active, never once it is final. */
export const runPollInterval = (run: Pick<FlowRun, 'status'> | undefined): number | false =>
  run === undefined || isActiveRun(run.status) ? RUN_POLL_MS : false;

/** GET /flow-runs/:id, polled every second while the run is running or paused. */
export const useFlowRun = (id: number) =>
  useQuery({
    ...opQuery(flowRunOps.getFlowRun, keys.detail(id), { params: { id } }),
    refetchInterval: (query) => (query.state.error ? false : runPollInterval(query.state.data as FlowRunDetail)),
  });

/** The robot's active run (running or paused), newest first: at most one. */
export const activeRunFilter = (robotId: number): Filter => ({
  where: { and: [{ robotId }, { status: { inq: [...ACTIVE_RUN_STATUSES] } }] },
  order: 'startedAt DESC',
  limit: 1,
});

/**
 * The robot's active run or null; looked for again every few seconds (a run may start elsewhere), or
 * every `interval` ms (the operator screen follows the current step this way).
 */
export const useActiveRun = (robotId: number, interval = ACTIVE_RUN_LOOKUP_MS) => {
  const filter = activeRunFilter(robotId);
  return useQuery({
    ...opQuery(flowRunOps.listFlowRuns, keys.list(filter), { query: { filter } }),
    select: (runs: FlowRun[]) => runs[0] ?? null,
    refetchInterval: (query) => (query.state.error ? false : interval),
  });
};

/** Every active run in scope (the robot control grid: one request for all cards), by robot. */
const allActiveFilter: Filter = {
  where: { status: { inq: [...ACTIVE_RUN_STATUSES] } },
  order: 'startedAt DESC',
  limit: 200,
};
const byRobot = (runs: FlowRun[]): ReadonlyMap<number, FlowRun> => new Map(runs.map((r) => [r.robotId, r]));
export const useActiveRuns = (interval: number) =>
  useQuery({
    ...opQuery(flowRunOps.listFlowRuns, keys.list(allActiveFilter), { query: { filter: allActiveFilter } }),
    select: byRobot,
    refetchInterval: (query) => (query.state.error ? false : interval),
  });

/** Once a run is final, the lists (the robot's active run, recent runs) are read again. */
export function useRefreshListsWhenFinal(run: Pick<FlowRun, 'status'> | undefined) {
  const qc = useQueryClient();
  const final = run !== undefined && !isActiveRun(run.status);
  useEffect(() => {
    if (final) void qc.invalidateQueries({ queryKey: [...keys.all, 'list'] });
  }, [final, qc]);
}

export const RECENT_RUNS_PER_PAGE = 10;

/** The robot's runs, newest first, one page with the total. */
export const recentRunsFilter = (robotId: number, page: number): Filter => ({
  where: { robotId },
  order: 'startedAt DESC',
  limit: RECENT_RUNS_PER_PAGE,
  skip: (page - 1) * RECENT_RUNS_PER_PAGE,
});

export const useRecentRuns = (robotId: number, page: number) => {
  const filter = recentRunsFilter(robotId, page);
  return useQuery({
    ...opPageQuery(flowRunOps.listFlowRuns, keys.list(filter), { query: { filter } }),
    placeholderData: keepPreviousData,
  });
};

/** POST /flows/:id/runs: 409 FLOW_ALREADY_RUNNING or HEALTH_CHECK_FAILED (details: the problems) when refused. */
export const useStartFlowRun = () =>
  useOpMutation(flowRunOps.startFlowRun, {
    args: ({ flowId, robotId }: { flowId: number; robotId: number }) => ({ params: { id: flowId }, body: { robotId } }),
    invalidates: ['flowRuns'],
  });

/** Pause, resume or cancel: the run's detail is read again at once. */
export function useRunControl(action: 'pause' | 'resume' | 'cancel') {
  const qc = useQueryClient();
  const op =
    action === 'pause'
      ? flowRunOps.pauseFlowRun
      : action === 'resume'
        ? flowRunOps.resumeFlowRun
        : flowRunOps.cancelFlowRun;
  return useOpMutation(op, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['flowRuns'],
    onSuccess: (run) => {
      qc.setQueryData<FlowRunDetail>(keys.detail(run.id), (old) => (old ? { ...old, ...run } : old));
    },
  });
}

/** The robots of a building (the "Run on robot" choice), by name. */
export const useBuildingRobots = (buildingId: number, enabled: boolean) => {
  const filter: Filter = { where: { buildingId }, order: 'name ASC', limit: 1000 };
  return useQuery({
    ...opQuery(robotOps.listRobots, queryKeys.robots.options('flow-run', filter), { query: { filter } }),
    enabled,
  });
};

/** The enabled flows of a building (the "Run flow" choice), in display order. */
export const useBuildingFlows = (buildingId: number, enabled: boolean) => {
  const filter: Filter = {
    where: { and: [{ buildingId }, { enabled: true }] },
    order: 'displayOrder ASC',
    limit: 1000,
  };
  return useQuery({
    ...opQuery(flowOps.listFlows, queryKeys.flows.options('flow-run', filter), { query: { filter } }),
    enabled,
  });
};

/** A floor's map (the progress map); not refetched while the run goes on. */
/** The floor's name for the run map's title. */
export const useRunFloor = (floorId: number) =>
  useQuery({
    ...opQuery(floorOps.getFloor, queryKeys.floors.detail(floorId), { params: { id: floorId } }),
    enabled: floorId > 0,
    staleTime: 5 * 60_000,
    retry: false,
  });

export const useRunFloorMap = (floorId: number | null) =>
  useQuery({
    ...opQuery(mapOps.getFloorMap, queryKeys.maps.detail(floorId ?? 0), { params: { id: floorId ?? 0 } }),
    enabled: floorId !== null && floorId > 0,
    staleTime: 5 * 60_000,
    retry: false,
  });
