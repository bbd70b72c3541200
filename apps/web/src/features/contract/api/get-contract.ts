import { myOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const contractQueryOptions = () => opQuery(myOps.getContract, queryKeys.contract.detail('mine'));

export const useContract = (options: { enabled?: boolean } = {}) =>
  useQuery({ ...contractQueryOptions(), enabled: options.enabled ?? true });
