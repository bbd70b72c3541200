import { organizationOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const notifTargetsQueryOptions = (organizationId: number) =>
  opQuery(organizationOps.listNotifTargets, queryKeys.organizations.part(organizationId, 'notif-targets'), {
    params: { id: organizationId },
  });

export const useNotifTargets = (organizationId: number) => useQuery(notifTargetsQueryOptions(organizationId));
