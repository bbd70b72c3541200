import {
  checkItemOps,
  floorOps,
  mapOps,
  thresholdOps,
  type CheckItemInput,
  type Filter,
  type UpdateCheckItemBody,
} from '@portal/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { opPageQuery, opQuery, useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import { checkItemListFilter, type CheckItemListParams } from './list-params';

const keys = queryKeys.checkItems;

/** GET /check-items?filter=: one page and the total. */
export const useCheckItems = (params: CheckItemListParams) => {
  const filter = checkItemListFilter(params);
  return useQuery({
    ...opPageQuery(checkItemOps.listCheckItems, keys.list(filter), { query: { filter } }),
    placeholderData: keepPreviousData,
  });
};

export const useCheckItem = (id: number) =>
  useQuery(opQuery(checkItemOps.getCheckItem, keys.detail(id), { params: { id } }));

export function useCreateCheckItem() {
  const qc = useQueryClient();
  return useOpMutation(checkItemOps.createCheckItem, {
    args: (body: CheckItemInput) => ({ body }),
    invalidates: ['checkItems'],
    onSuccess: (item) => qc.setQueryData(keys.detail(item.id), item),
  });
}

/** PUT /check-items/:id with the version the change is based on (409 STALE_UPDATE when it changed since). */
export function useUpdateCheckItem() {
  const qc = useQueryClient();
  return useOpMutation(checkItemOps.updateCheckItem, {
    args: ({ id, body }: { id: number; body: UpdateCheckItemBody }) => ({ params: { id }, body }),
    invalidates: ['checkItems'],
    onSuccess: (item) => qc.setQueryData(keys.detail(item.id), item),
  });
}

export function useDeleteCheckItem() {
  const qc = useQueryClient();
  return useOpMutation(checkItemOps.deleteCheckItem, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['checkItems'],
    onSuccess: (_, id) => qc.removeQueries({ queryKey: keys.detail(id) }),
  });
}

const floorFilter: Filter = { fields: ['id', 'name', 'index'], order: 'index DESC', limit: 1000 };

/** The floors of a building (the form's floor select), top floor first. */
export const useFloorOptions = (buildingId: number | undefined) =>
  useQuery({
    ...opQuery(floorOps.listFloors, queryKeys.floors.options('check-items', { buildingId }), {
      params: { id: buildingId ?? 0 },
      query: { filter: floorFilter },
    }),
    enabled: buildingId !== undefined,
  });

/** A floor's map (image and waypoints) for placing an item; a floor without a map answers an error. */
export const useFloorMap = (floorId: number | undefined) =>
  useQuery({
    ...opQuery(mapOps.getFloorMap, queryKeys.maps.detail(floorId ?? 0), { params: { id: floorId ?? 0 } }),
    enabled: floorId !== undefined,
    retry: false,
    staleTime: 60_000,
  });

const ruleFilter: Filter = { order: 'name ASC', limit: 1000 };

/** The threshold rules in scope (the form's rule select and the list's rule names), by name. */
export const useThresholdRuleOptions = () =>
  useQuery({
    ...opQuery(thresholdOps.listThresholdRules, keys.options('threshold-rules', ruleFilter), {
      query: { filter: ruleFilter },
    }),
    retry: false,
    staleTime: 30_000,
  });
