import { webhookOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const webhookQueryOptions = (id: number) =>
  opQuery(webhookOps.getWebhook, queryKeys.webhooks.detail(id), { params: { id } });

export const useWebhook = (id: number) => useQuery(webhookQueryOptions(id));
