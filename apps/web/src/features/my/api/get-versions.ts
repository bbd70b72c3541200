import { versionsSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const getVersions = () => api.get('/my/versions', versionsSchema);

export const versionsQueryOptions = () => queryOptions({ queryKey: ['my', 'versions'], queryFn: getVersions });

export const useVersions = () => useQuery(versionsQueryOptions());
