import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { robotKeys } from './keys';

export const dismissPendingRobot = (id: number) => api.command('DELETE', `/robots/pending/${id}`);

export function useDismissPendingRobot() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: dismissPendingRobot,
    onSuccess: () => void qc.invalidateQueries({ queryKey: robotKeys.pending }),
  });
}
