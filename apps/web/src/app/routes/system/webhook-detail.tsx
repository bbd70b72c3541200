import { useParams } from 'react-router';
import { WebhookEditPage } from '@/features/webhooks/components/webhook-page';
import { RequireSystemAdmin } from '../../guards/require-role';
import { idParam, InvalidId } from '../shared/invalid-id';

export function Component() {
  const id = idParam(useParams().id);
  if (id === null) return <InvalidId />;
  return (
    <RequireSystemAdmin>
      <WebhookEditPage key={id} id={id} />
    </RequireSystemAdmin>
  );
}
