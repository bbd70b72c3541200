import { myOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const profileQueryOptions = () => opQuery(myOps.getProfile, queryKeys.my.part('me', 'profile'));

export const useProfile = () => useQuery(profileQueryOptions());
