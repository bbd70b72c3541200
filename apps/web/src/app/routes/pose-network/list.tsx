import { canManagePoses } from '@/features/poses/can-manage';
import { PoseNetworkList } from '@/features/poses/components/pose-network-list';
import { useSession } from '@/lib/session';

export function Component() {
  const session = useSession();
  return <PoseNetworkList canManage={canManagePoses(session?.type)} />;
}
