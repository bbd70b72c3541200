import { operatorSchema, type Filter } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

const filter: Filter = { order: ['lastName ASC', 'firstName ASC'], limit: 1000 };

/** Operators of the caller's scope, for the "operator" filter of the audit log. */
export const getOperatorOptions = () =>
  api.get('/operators', z.array(operatorSchema), { query: { filter: JSON.stringify(filter) } });

export const operatorOptionsQueryOptions = () =>
  queryOptions({ queryKey: ['operators', 'options'], queryFn: getOperatorOptions, staleTime: 60_000 });

export const useOperatorOptions = () => useQuery(operatorOptionsQueryOptions());
