import { myOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const devicesQueryOptions = () => opQuery(myOps.listDevices, queryKeys.my.part('me', 'devices'));

export const useDevices = () => useQuery(devicesQueryOptions());
