import { operatorOps, type Filter } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

const filter: Filter = { order: ['lastName ASC', 'firstName ASC'], limit: 1000 };

/** Operators of the caller's scope, for the "operator" filter of the audit log. */
export const operatorOptionsQueryOptions = () => ({
  ...opQuery(operatorOps.listOperators, queryKeys.operators.options('audit-log'), { query: { filter } }),
  staleTime: 60_000,
});

export const useOperatorOptions = () => useQuery(operatorOptionsQueryOptions());
