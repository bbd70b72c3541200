import { groupSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { buildingKeys, type GroupKind } from './keys';

export const getGroup = (kind: GroupKind, id: number) => api.get(`/${kind}s/${id}`, groupSchema);

export const groupQueryOptions = (kind: GroupKind, id: number) =>
  queryOptions({ queryKey: buildingKeys.group(kind, id), queryFn: () => getGroup(kind, id) });

export const useGroup = (kind: GroupKind, id: number) => useQuery(groupQueryOptions(kind, id));
