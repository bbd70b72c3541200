import { Forbidden } from '@/app/guards/require-role';
import { ThresholdCreate } from '@/features/thresholds/components/threshold-page';
import { canManageThresholds } from '@/features/thresholds/list-params';
import { useSession } from '@/lib/session';

/** /threshold/create: organization and system administrators. */
export function Component() {
  const session = useSession();
  if (!canManageThresholds(session?.type)) return <Forbidden />;
  return <ThresholdCreate />;
}
