import type { ArgsTuple, CallArgs, OpResponse, Operation } from '@portal/contract';
import {
  queryOptions,
  useMutation,
  useQueryClient,
  type QueryKey,
  type UseMutationOptions,
} from '@tanstack/react-query';
import { client } from './api-client';
import { queryKeys, type Resource } from './query-keys';

/** Query options of one operation: its key from the resource's factory, its call through the typed client. */
export function opQuery<O extends Operation, K extends QueryKey>(op: O, queryKey: K, ...args: ArgsTuple<O>) {
  return queryOptions({
    queryKey,
    queryFn: ({ signal }) => client.call(op, ...([{ ...(args[0] ?? {}), signal }] as unknown as ArgsTuple<O>)),
  });
}

/** Query options of a paged list operation: items and the total of the whole list. */
export function opPageQuery<O extends Operation, K extends QueryKey>(op: O, queryKey: K, ...args: ArgsTuple<O>) {
  return queryOptions({
    queryKey,
    queryFn: ({ signal }) => client.page(op, ...([{ ...(args[0] ?? {}), signal }] as unknown as ArgsTuple<O>)),
  });
}

/** Invalidates every view of the given resources. */
export function useInvalidate() {
  const queryClient = useQueryClient();
  return (...resources: Resource[]) =>
    Promise.all(resources.map((r) => queryClient.invalidateQueries({ queryKey: queryKeys[r].all })));
}

interface OpMutationOptions<O extends Operation, V> extends Omit<
  UseMutationOptions<OpResponse<O>, Error, V>,
  'mutationFn'
> {
  /** The call's arguments from the mutation's variables. */
  args: (variables: V) => CallArgs<O>;
  /** The resources this operation changes: every view of them refreshes on success. */
  invalidates: Resource[];
}

/** A mutation of one operation that refreshes the views of the resources it changes. */
export function useOpMutation<O extends Operation, V = void>(op: O, options: OpMutationOptions<O, V>) {
  const invalidate = useInvalidate();
  const { args, invalidates, onSuccess, ...rest } = options;
  return useMutation<OpResponse<O>, Error, V>({
    ...rest,
    mutationFn: (variables) => client.call(op, ...([args(variables)] as ArgsTuple<O>)),
    onSuccess: async (data, variables, result, context) => {
      void invalidate(...invalidates);
      await onSuccess?.(data, variables, result, context);
    },
  });
}
