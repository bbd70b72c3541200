import { thresholdOps, type ThresholdRuleInput, type UpdateThresholdRuleBody } from '@portal/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { opPageQuery, opQuery, useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import {
  thresholdListFilter,
  thresholdLogFilter,
  type ThresholdListParams,
  type ThresholdLogParams,
} from './list-params';

const keys = queryKeys.thresholdRules;

/** GET /threshold-rules?filter=: one page and the X-Total-Count total. */
export const useThresholdRules = (params: ThresholdListParams) => {
  const filter = thresholdListFilter(params);
  return useQuery({
    ...opPageQuery(thresholdOps.listThresholdRules, keys.list(filter), { query: { filter } }),
    placeholderData: keepPreviousData,
  });
};

/** Every rule of the organization by name (the log's rule filter). */
export const useThresholdRuleOptions = () => {
  const filter = { order: 'name ASC', limit: 200 };
  return useQuery(opPageQuery(thresholdOps.listThresholdRules, keys.options('all'), { query: { filter } }));
};

export const useThresholdRule = (id: number) =>
  useQuery(opQuery(thresholdOps.getThresholdRule, keys.detail(id), { params: { id } }));

/** GET /threshold-logs?filter=: breaches, newest first. */
export const useThresholdLogs = (params: ThresholdLogParams, page: number) => {
  const filter = thresholdLogFilter(params, page);
  return useQuery({
    ...opPageQuery(thresholdOps.listThresholdLogs, queryKeys.thresholdLogs.list(filter), { query: { filter } }),
    placeholderData: keepPreviousData,
  });
};

export const useCreateThresholdRule = () =>
  useOpMutation(thresholdOps.createThresholdRule, {
    args: (body: ThresholdRuleInput) => ({ body }),
    invalidates: ['thresholdRules'],
  });

/** PUT /threshold-rules/:id with the updatedAt the edit is based on (409 STALE_UPDATE when it changed since). */
export function useUpdateThresholdRule() {
  const qc = useQueryClient();
  return useOpMutation(thresholdOps.updateThresholdRule, {
    args: ({ id, body }: { id: number; body: UpdateThresholdRuleBody }) => ({ params: { id }, body }),
    invalidates: ['thresholdRules'],
    onSuccess: (rule) => qc.setQueryData(keys.detail(rule.id), rule),
  });
}

export function useDeleteThresholdRule() {
  const qc = useQueryClient();
  return useOpMutation(thresholdOps.deleteThresholdRule, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['thresholdRules', 'thresholdLogs'],
    onSuccess: (_, id) => qc.removeQueries({ queryKey: keys.detail(id) }),
  });
}
