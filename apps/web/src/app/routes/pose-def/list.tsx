import { canManagePoses } from '@/features/poses/can-manage';
import { PoseDefList } from '@/features/poses/components/pose-def-list';
import { useSession } from '@/lib/session';

export function Component() {
  const session = useSession();
  return <PoseDefList canManage={canManagePoses(session?.type)} />;
}
