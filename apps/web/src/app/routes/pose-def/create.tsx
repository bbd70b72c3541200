import { Forbidden } from '@/app/guards/require-role';
import { canManagePoses } from '@/features/poses/can-manage';
import { PoseDefCreate } from '@/features/poses/components/pose-def-page';
import { useSession } from '@/lib/session';

export function Component() {
  const session = useSession();
  if (!session || !canManagePoses(session.type)) return <Forbidden />;
  return <PoseDefCreate canManage />;
}
