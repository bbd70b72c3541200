import { WebhookList } from '@/features/webhooks/components/webhook-list';
import { RequireSystemAdmin } from '../../guards/require-role';

export function Component() {
  return (
    <RequireSystemAdmin>
      <WebhookList />
    </RequireSystemAdmin>
  );
}
