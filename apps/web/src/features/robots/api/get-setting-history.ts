import { robotOps, type Filter } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { opPageQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const HISTORY_PER_PAGE = 20;

/** GET /robots/:id/setting-history?filter=: newest first, one page and the total. */
export const settingHistoryQueryOptions = (id: number, page: number) => {
  const filter: Filter = { order: 'changedAt DESC', limit: HISTORY_PER_PAGE, skip: (page - 1) * HISTORY_PER_PAGE };
  return {
    ...opPageQuery(robotOps.listRobotSettingHistory, queryKeys.robots.part(id, 'setting-history', page), {
      params: { id },
      query: { filter },
    }),
    placeholderData: keepPreviousData,
  };
};

export const useSettingHistory = (id: number, page: number) => useQuery(settingHistoryQueryOptions(id, page));
