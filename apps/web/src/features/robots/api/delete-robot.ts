import { robotOps } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useInvalidate, useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export function useDeleteRobot() {
  const qc = useQueryClient();
  const invalidate = useInvalidate();
  return useOpMutation(robotOps.deleteRobot, {
    args: (id: number) => ({ params: { id } }),
    // The deleted robot's own views go first, so that refreshing the others does not fetch it again.
    invalidates: [],
    onSuccess: (_, id) => {
      qc.removeQueries({ queryKey: queryKeys.robots.detail(id) });
      void invalidate('robots');
    },
  });
}
