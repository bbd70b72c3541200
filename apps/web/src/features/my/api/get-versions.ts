import { myOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const versionsQueryOptions = () => opQuery(myOps.getVersions, queryKeys.my.part('me', 'versions'));

export const useVersions = () => useQuery(versionsQueryOptions());
