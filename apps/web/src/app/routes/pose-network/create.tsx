import { Forbidden } from '@/app/guards/require-role';
import { canManagePoses } from '@/features/poses/can-manage';
import { PoseNetworkCreate } from '@/features/poses/components/pose-network-page';
import { useSession } from '@/lib/session';

export function Component() {
  const session = useSession();
  if (!session || !canManagePoses(session.type)) return <Forbidden />;
  return <PoseNetworkCreate />;
}
