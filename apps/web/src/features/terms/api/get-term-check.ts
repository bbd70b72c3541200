import { termCheckSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const getTermCheck = () => api.get('/my/term-agreements/check', termCheckSchema);

export const termCheckQueryOptions = () => queryOptions({ queryKey: ['my', 'term-check'], queryFn: getTermCheck });

export const useTermCheck = () => useQuery(termCheckQueryOptions());
