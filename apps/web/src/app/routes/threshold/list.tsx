import { ThresholdList } from '@/features/thresholds/components/threshold-list';
import { canManageThresholds } from '@/features/thresholds/list-params';
import { useSession } from '@/lib/session';

/** /threshold/list: every operator reads; organization and system administrators also create (spec §6). */
export function Component() {
  const session = useSession();
  return <ThresholdList canManage={canManageThresholds(session?.type)} />;
}
