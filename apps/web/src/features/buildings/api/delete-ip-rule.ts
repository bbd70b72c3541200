import { buildingOps } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

export const useDeleteIpRule = (_buildingId: number) =>
  useOpMutation(buildingOps.deleteIpRule, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['buildings'],
  });
