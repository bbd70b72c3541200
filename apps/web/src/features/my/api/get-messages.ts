import { messageSchema, paged } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const MESSAGES_PER_PAGE = 20;
const messagePageSchema = paged(messageSchema);

export const getMessages = (page: number) =>
  api.get('/my/messages', messagePageSchema, { query: { page, perPage: MESSAGES_PER_PAGE } });

export const messagesQueryOptions = (page: number) =>
  queryOptions({
    queryKey: ['my', 'messages', page],
    queryFn: () => getMessages(page),
    placeholderData: keepPreviousData,
  });

export const useMessages = (page: number) => useQuery(messagesQueryOptions(page));
