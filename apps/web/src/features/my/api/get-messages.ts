import { myOps } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const MESSAGES_PER_PAGE = 20;

export const messagesQueryOptions = (page: number) => ({
  ...opQuery(myOps.listMessages, queryKeys.my.part('me', 'messages', page), {
    query: { page, perPage: MESSAGES_PER_PAGE },
  }),
  placeholderData: keepPreviousData,
});

export const useMessages = (page: number) => useQuery(messagesQueryOptions(page));
