import { isSystemAdmin } from '@portal/contract';
import { BuildingFilter } from '@/components/building-filter';
import { canManageRobots } from '@/features/robots/can-manage';
import { PendingRobots } from '@/features/robots/components/pending-robots';
import { RobotList } from '@/features/robots/components/robot-list';
import { useSession } from '@/lib/session';

export function Component() {
  const session = useSession();
  return (
    <RobotList
      canManage={canManageRobots(session?.type)}
      buildingFilter={<BuildingFilter allowAll resetParams={['page', 'group']} />}
      pending={session && isSystemAdmin(session.type) ? <PendingRobots /> : undefined}
    />
  );
}
