import { profileSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const getProfile = () => api.get('/my/profile', profileSchema);

export const profileQueryOptions = () => queryOptions({ queryKey: ['my', 'profile'], queryFn: getProfile });

export const useProfile = () => useQuery(profileQueryOptions());
