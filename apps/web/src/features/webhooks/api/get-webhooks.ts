import { webhookOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const webhooksQueryOptions = () => opQuery(webhookOps.listWebhooks, queryKeys.webhooks.list());

export const useWebhooks = () => useQuery(webhooksQueryOptions());
