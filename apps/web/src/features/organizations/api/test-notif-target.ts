import { testNotificationResultSchema } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST .../test: sends a test message now and answers sent, stored (no SMTP) or failed. */
export const testNotifTarget = ({ organizationId, id }: { organizationId: number; id: number }) =>
  api.send('POST', `/organizations/${organizationId}/notif-targets/${id}/test`, testNotificationResultSchema);

export const useTestNotifTarget = () => useMutation({ mutationFn: testNotifTarget });
