import { notifTargetSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

export const getNotifTargets = (organizationId: number) =>
  api.get(`/organizations/${organizationId}/notif-targets`, z.array(notifTargetSchema));

export const notifTargetsQueryOptions = (organizationId: number) =>
  queryOptions({
    queryKey: ['organizations', organizationId, 'notif-targets'],
    queryFn: () => getNotifTargets(organizationId),
  });

export const useNotifTargets = (organizationId: number) => useQuery(notifTargetsQueryOptions(organizationId));
