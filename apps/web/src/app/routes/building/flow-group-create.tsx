import { useSearchParams } from 'react-router';
import { Forbidden } from '@/app/guards/require-role';
import { canManageBuildings } from '@/features/buildings/can-manage';
import { GroupCreatePage } from '@/features/buildings/components/group-page';
import { useSession } from '@/lib/session';
import { idParam } from '../shared/invalid-id';

export function Component() {
  const session = useSession();
  const [params] = useSearchParams();
  if (!canManageBuildings(session?.type)) return <Forbidden />;
  return <GroupCreatePage kind="flow-group" buildingId={idParam(params.get('buildingId'))} canManage />;
}
