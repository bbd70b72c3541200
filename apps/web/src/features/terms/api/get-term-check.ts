import { myOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const termCheckQueryOptions = () => opQuery(myOps.checkTermAgreements, queryKeys.terms.detail('check'));

export const useTermCheck = () => useQuery(termCheckQueryOptions());
