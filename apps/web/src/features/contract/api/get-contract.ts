import { contractSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const getContract = () => api.get('/my/contract', contractSchema);

export const contractQueryOptions = () => queryOptions({ queryKey: ['my', 'contract'], queryFn: getContract });

export const useContract = (options: { enabled?: boolean } = {}) =>
  useQuery({ ...contractQueryOptions(), enabled: options.enabled ?? true });
