import { useSearchParams } from 'react-router';
import { Forbidden } from '@/app/guards/require-role';
import { canManageRobots } from '@/features/robots/can-manage';
import { RobotCreate } from '@/features/robots/components/robot-create';
import { useSession } from '@/lib/session';

export function Component() {
  const session = useSession();
  const [search] = useSearchParams();
  if (!session || !canManageRobots(session.type)) return <Forbidden />;
  return <RobotCreate serialNo={search.get('serial') ?? ''} buildingId={session.buildingId} />;
}
