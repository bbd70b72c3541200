import { organizationOps } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

/**
 * POST .../test: sends a test message now and answers sent, stored (no SMTP) or failed. It changes
 * no organization data, only adds to the delivery log.
 */
export const useTestNotifTarget = () =>
  useOpMutation(organizationOps.testNotifTarget, {
    args: ({ organizationId, id }: { organizationId: number; id: number }) => ({
      params: { id: organizationId, ntid: id },
    }),
    invalidates: ['deliveries'],
  });
