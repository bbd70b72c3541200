import { useParams } from 'react-router';
import { canManageBuildings } from '@/features/buildings/can-manage';
import { GroupEditPage } from '@/features/buildings/components/group-page';
import { useSession } from '@/lib/session';
import { idParam, InvalidId } from '../shared/invalid-id';

export function Component() {
  const session = useSession();
  const id = idParam(useParams().id);
  if (id === null) return <InvalidId />;
  return <GroupEditPage key={id} kind="robot-group" id={id} canManage={canManageBuildings(session?.type)} />;
}
