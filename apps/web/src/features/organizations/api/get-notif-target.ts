import { notifTargetSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const getNotifTarget = (organizationId: number, id: number) =>
  api.get(`/organizations/${organizationId}/notif-targets/${id}`, notifTargetSchema);

export const notifTargetQueryOptions = (organizationId: number, id: number) =>
  queryOptions({
    queryKey: ['organizations', organizationId, 'notif-targets', id],
    queryFn: () => getNotifTarget(organizationId, id),
  });

export const useNotifTarget = (organizationId: number, id: number) =>
  useQuery(notifTargetQueryOptions(organizationId, id));
