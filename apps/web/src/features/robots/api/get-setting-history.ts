import { robotSettingChangeSchema, type Filter } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest, parseWith } from '@/lib/api-client';
import { totalOf } from '@/lib/list-params';
import { robotKeys } from './keys';

export const HISTORY_PER_PAGE = 20;

/** GET /robots/:id/setting-history?filter=: newest first, one page and the total. */
export async function getSettingHistory(id: number, page: number) {
  const filter: Filter = { order: 'changedAt DESC', limit: HISTORY_PER_PAGE, skip: (page - 1) * HISTORY_PER_PAGE };
  const res = await apiRequest('GET', `/robots/${id}/setting-history`, { query: { filter: JSON.stringify(filter) } });
  const items = parseWith(z.array(robotSettingChangeSchema), res.data);
  return { items, total: totalOf(res.headers, (page - 1) * HISTORY_PER_PAGE + items.length) };
}

export const settingHistoryQueryOptions = (id: number, page: number) =>
  queryOptions({
    queryKey: robotKeys.history(id, page),
    queryFn: () => getSettingHistory(id, page),
    placeholderData: keepPreviousData,
  });

export const useSettingHistory = (id: number, page: number) => useQuery(settingHistoryQueryOptions(id, page));
