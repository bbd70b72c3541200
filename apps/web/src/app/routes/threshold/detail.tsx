import { useParams } from 'react-router';
import { ThresholdPage } from '@/features/thresholds/components/threshold-page';
import { canManageThresholds } from '@/features/thresholds/list-params';
import { useSession } from '@/lib/session';
import { idParam, InvalidId } from '../shared/invalid-id';

/** /threshold/{id}: the rule's form; read-only for those who may not change it. */
export function Component() {
  const session = useSession();
  const id = idParam(useParams().id);
  if (id === null) return <InvalidId />;
  return <ThresholdPage key={id} id={id} canManage={canManageThresholds(session?.type)} />;
}
