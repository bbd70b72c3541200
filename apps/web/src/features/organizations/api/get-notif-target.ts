import { organizationOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const notifTargetQueryOptions = (organizationId: number, id: number) =>
  opQuery(organizationOps.getNotifTarget, queryKeys.organizations.part(organizationId, 'notif-targets', id), {
    params: { id: organizationId, ntid: id },
  });

export const useNotifTarget = (organizationId: number, id: number) =>
  useQuery(notifTargetQueryOptions(organizationId, id));
