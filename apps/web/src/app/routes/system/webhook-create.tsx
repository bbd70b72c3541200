import { WebhookCreatePage } from '@/features/webhooks/components/webhook-page';
import { RequireSystemAdmin } from '../../guards/require-role';

export function Component() {
  return (
    <RequireSystemAdmin>
      <WebhookCreatePage />
    </RequireSystemAdmin>
  );
}
