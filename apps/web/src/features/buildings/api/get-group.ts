import { groupOpsByKind } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import { groupResource, type GroupKind } from './get-groups';

export const groupQueryOptions = (kind: GroupKind, id: number) =>
  opQuery(groupOpsByKind[kind].get, queryKeys[groupResource(kind)].detail(id), { params: { id } });

export const useGroup = (kind: GroupKind, id: number) => useQuery(groupQueryOptions(kind, id));
