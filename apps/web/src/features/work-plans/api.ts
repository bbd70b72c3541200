import {
  floorOps,
  mapOps,
  robotOps,
  workPlanOps,
  workPlanRunOps,
  type WorkPlanRun,
  type Filter,
  type UpdateWorkPlanBody,
  type UpdateWorkPlanTemplateBody,
  type WorkPlanInput,
  type WorkPlanTemplateInput,
} from '@portal/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { opPageQuery, opQuery, useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import { templateListFilter, workPlanListFilter, type WorkPlanListParams } from './list-params';

const keys = queryKeys.workPlans;
const tkeys = queryKeys.workPlanTemplates;

/** GET /work-plans?filter=: one page and the total. */
export const useWorkPlans = (params: WorkPlanListParams) => {
  const filter = workPlanListFilter(params);
  return useQuery({
    ...opPageQuery(workPlanOps.listWorkPlans, keys.list(filter), { query: { filter } }),
    placeholderData: keepPreviousData,
  });
};

/** The enabled work plans of one building and floor (the operator screen's chooser). */
export const useFloorWorkPlans = (buildingId: number | null, floorId: number | null) => {
  const filter: Filter = {
    where: { buildingId: buildingId ?? 0, floorId: floorId ?? 0, status: 1 },
    order: 'name ASC',
    limit: 100,
  };
  return useQuery({
    ...opPageQuery(workPlanOps.listWorkPlans, keys.options('floor', filter), { query: { filter } }),
    enabled: buildingId !== null && floorId !== null,
  });
};

export const useWorkPlan = (id: number) =>
  useQuery(opQuery(workPlanOps.getWorkPlan, keys.detail(id), { params: { id } }));

export function useCreateWorkPlan() {
  const qc = useQueryClient();
  return useOpMutation(workPlanOps.createWorkPlan, {
    args: (body: WorkPlanInput) => ({ body }),
    invalidates: ['workPlans'],
    onSuccess: (p) => qc.setQueryData(keys.detail(p.id), p),
  });
}

/** PUT /work-plans/:id with the version the change is based on (409 STALE_UPDATE when it changed since). */
export function useUpdateWorkPlan() {
  const qc = useQueryClient();
  return useOpMutation(workPlanOps.updateWorkPlan, {
    args: ({ id, body }: { id: number; body: UpdateWorkPlanBody }) => ({ params: { id }, body }),
    invalidates: ['workPlans'],
    onSuccess: (p) => qc.setQueryData(keys.detail(p.id), p),
  });
}

export function useDeleteWorkPlan() {
  const qc = useQueryClient();
  return useOpMutation(workPlanOps.deleteWorkPlan, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['workPlans'],
    onSuccess: (_, id) => qc.removeQueries({ queryKey: keys.detail(id) }),
  });
}

/** GET /work-plan-templates: the shipped templates, the shared ones and the organization's. */
export const useWorkPlanTemplates = () =>
  useQuery(
    opPageQuery(workPlanOps.listWorkPlanTemplates, tkeys.list(templateListFilter), {
      query: { filter: templateListFilter },
    }),
  );

export const useWorkPlanTemplate = (id: number | null) =>
  useQuery({
    ...opQuery(workPlanOps.getWorkPlanTemplate, tkeys.detail(id ?? 0), { params: { id: id ?? 0 } }),
    enabled: id !== null,
  });

export function useCreateWorkPlanTemplate() {
  const qc = useQueryClient();
  return useOpMutation(workPlanOps.createWorkPlanTemplate, {
    args: (body: WorkPlanTemplateInput) => ({ body }),
    invalidates: ['workPlanTemplates'],
    onSuccess: (p) => qc.setQueryData(tkeys.detail(p.id), p),
  });
}

export function useUpdateWorkPlanTemplate() {
  const qc = useQueryClient();
  return useOpMutation(workPlanOps.updateWorkPlanTemplate, {
    args: ({ id, body }: { id: number; body: UpdateWorkPlanTemplateBody }) => ({ params: { id }, body }),
    invalidates: ['workPlanTemplates'],
    onSuccess: (p) => qc.setQueryData(tkeys.detail(p.id), p),
  });
}

export function useDeleteWorkPlanTemplate() {
  const qc = useQueryClient();
  return useOpMutation(workPlanOps.deleteWorkPlanTemplate, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['workPlanTemplates'],
    onSuccess: (_, id) => qc.removeQueries({ queryKey: tkeys.detail(id) }),
  });
}

const floorFilter: Filter = { fields: ['id', 'name', 'index'], order: 'index DESC', limit: 1000 };

/** The floors of a building (the form's floor select), top floor first. */
export const useFloorOptions = (buildingId: number | undefined) =>
  useQuery({
    ...opQuery(floorOps.listFloors, queryKeys.floors.options('work-plans', { buildingId }), {
      params: { id: buildingId ?? 0 },
      query: { filter: floorFilter },
    }),
    enabled: buildingId !== undefined,
  });

/** The waypoints of a floor's current map (none when it has no map). */
export function useFloorWaypoints(floorId: number | null): Array<{ id: number; name: string }> {
  const map = useQuery({
    ...opQuery(mapOps.getFloorMap, queryKeys.maps.detail(floorId ?? 0), { params: { id: floorId ?? 0 } }),
    enabled: floorId !== null,
    retry: false,
    staleTime: 60_000,
  });
  return floorId === null ? [] : (map.data?.document.waypoints ?? []).map((w) => ({ id: w.id, name: w.name }));
}

// ---------------------------------------------------------------- runs (the operator screen)

const rkeys = queryKeys.workPlanRuns;

/** The robot's floor (the chooser offers that floor's enabled work plans). */
export const useRobotFloor = (robotId: number) =>
  useQuery({
    ...opQuery(robotOps.getRobot, queryKeys.robots.detail(robotId), { params: { id: robotId } }),
    select: (r) => r.floorId,
  });

/** How often the operator screen reads the robot's open run: a flow may open one; a move goes on. */
const RUN_POLL_MS = 3000;
const MOVE_POLL_MS = 1000;

/** The robot's open run, if any (it survives a reload of the operator screen; a flow may open one). */
export const useOpenRun = (robotId: number) => {
  const filter: Filter = { where: { robotId, status: 'open' }, limit: 1 };
  return useQuery({
    ...opPageQuery(workPlanRunOps.listWorkPlanRuns, rkeys.list(filter), { query: { filter } }),
    select: (page) => (page.items[0] as WorkPlanRun | undefined) ?? null,
    refetchInterval: (q) =>
      (q.state.data?.items[0] as WorkPlanRun | undefined)?.move?.status === 'moving' ? MOVE_POLL_MS : RUN_POLL_MS,
  });
};

export const useStartRun = () =>
  useOpMutation(workPlanRunOps.startWorkPlanRun, {
    args: (body: { workPlanId: number; robotId: number }) => ({ body }),
    invalidates: ['workPlanRuns'],
  });

export const useConfirmStep = () =>
  useOpMutation(workPlanRunOps.confirmWorkPlanStep, {
    args: ({ id, stepId }: { id: number; stepId: string }) => ({ params: { id }, body: { stepId } }),
    invalidates: ['workPlanRuns'],
  });

/** Sends the robot to a movement step's waypoint (202: the run with its move). */
export const useMoveStep = () =>
  useOpMutation(workPlanRunOps.moveWorkPlanStep, {
    args: ({ id, stepId }: { id: number; stepId: string }) => ({ params: { id }, body: { stepId } }),
    invalidates: ['workPlanRuns'],
  });

export const useCloseRun = () =>
  useOpMutation(workPlanRunOps.closeWorkPlanRun, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['workPlanRuns'],
  });
