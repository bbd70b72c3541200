import { organizationOps } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

export const useDeleteNotifTarget = () =>
  useOpMutation(organizationOps.deleteNotifTarget, {
    args: ({ organizationId, id }: { organizationId: number; id: number }) => ({
      params: { id: organizationId, ntid: id },
    }),
    invalidates: ['organizations'],
  });
