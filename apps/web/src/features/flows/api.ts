import {
  buildingOps,
  floorOps,
  flowOps,
  type Filter,
  type Flow,
  type FlowInput,
  type ReorderFlowsBody,
  type UpdateFlowBody,
} from '@portal/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { opQuery, useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

const keys = queryKeys.flows;

/** The flows of one building and floor (every one: reordering needs them all), in display order. */
export const floorFlowsFilter = (buildingId: number, floorId: number): Filter => ({
  where: { and: [{ buildingId }, { floorId }] },
  order: 'displayOrder ASC',
  limit: 1000,
});

export const floorFlowsQueryOptions = (buildingId: number, floorId: number) => {
  const filter = floorFlowsFilter(buildingId, floorId);
  return opQuery(flowOps.listFlows, keys.list(filter), { query: { filter } });
};

export const useFloorFlows = (buildingId: number | null, floorId: number | null) =>
  useQuery({
    ...floorFlowsQueryOptions(buildingId ?? 0, floorId ?? 0),
    enabled: buildingId !== null && floorId !== null,
  });

export const useFlow = (id: number) => useQuery(opQuery(flowOps.getFlow, keys.detail(id), { params: { id } }));

export const useCreateFlow = () =>
  useOpMutation(flowOps.createFlow, { args: (body: FlowInput) => ({ body }), invalidates: ['flows'] });

/** PUT /flows/:id with the version the edit is based on (409 STALE_UPDATE when it changed since). */
export function useUpdateFlow() {
  const qc = useQueryClient();
  return useOpMutation(flowOps.updateFlow, {
    args: ({ id, body }: { id: number; body: UpdateFlowBody }) => ({ params: { id }, body }),
    invalidates: ['flows'],
    onSuccess: (flow) => qc.setQueryData(keys.detail(flow.id), flow),
  });
}

export function useDeleteFlow() {
  const qc = useQueryClient();
  return useOpMutation(flowOps.deleteFlow, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['flows'],
    onSuccess: (_, id) => qc.removeQueries({ queryKey: keys.detail(id) }),
  });
}

/** PUT /flows/:id/enabled: a list action (the version does not change). */
export const useSetFlowEnabled = () =>
  useOpMutation(flowOps.setFlowEnabled, {
    args: ({ id, enabled }: { id: number; enabled: boolean }) => ({ params: { id }, body: { enabled } }),
    invalidates: ['flows'],
  });

/** PUT /flows/order; shows the new order at once and puts the old one back if the server refuses. */
export function useReorderFlows() {
  const qc = useQueryClient();
  return useOpMutation(flowOps.reorderFlows, {
    args: (body: ReorderFlowsBody) => ({ body }),
    invalidates: ['flows'],
    onMutate: async (body) => {
      const key = keys.list(floorFlowsFilter(body.buildingId, body.floorId));
      await qc.cancelQueries({ queryKey: key });
      const before = qc.getQueryData<Flow[]>(key);
      if (before) {
        const byId = new Map(before.map((f) => [f.id, f]));
        qc.setQueryData(
          key,
          body.ids.flatMap((id) => byId.get(id) ?? []),
        );
      }
      return { key, before };
    },
    onError: (_e, _b, context) => {
      const c = context as { key: readonly unknown[]; before?: Flow[] } | undefined;
      if (c?.before) qc.setQueryData(c.key, c.before);
    },
  });
}

/** The active buildings with their flow groups (the location switcher's query: one cache entry). */
const activeBuildingsFilter: Filter = {
  where: { status: 1 },
  order: 'updatedAt DESC',
  include: ['groups', 'flowGroups'],
};
export const useFlowBuildings = () =>
  useQuery({
    ...opQuery(buildingOps.listBuildings, queryKeys.buildings.options('active', activeBuildingsFilter), {
      query: { filter: activeBuildingsFilter },
    }),
    staleTime: 5 * 60_000,
  });

/** A building's floors, top floor first (the floor screens' query: one cache entry). */
const floorsFilter: Filter = {
  fields: ['id', 'name', 'buildingId', 'type', 'index', 'img', 'updatedAt'],
  order: 'index DESC',
  limit: 1000,
};
export const useFlowFloors = (buildingId: number) =>
  useQuery({
    ...opQuery(floorOps.listFloors, queryKeys.floors.list({ buildingId, filter: floorsFilter }), {
      params: { id: buildingId },
      query: { filter: floorsFilter },
    }),
    enabled: buildingId > 0,
  });
