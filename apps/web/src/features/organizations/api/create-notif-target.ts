import { organizationOps, type NotifTargetInput } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

export const useCreateNotifTarget = () =>
  useOpMutation(organizationOps.createNotifTarget, {
    args: ({ organizationId, body }: { organizationId: number; body: NotifTargetInput }) => ({
      params: { id: organizationId },
      body,
    }),
    invalidates: ['organizations'],
  });
