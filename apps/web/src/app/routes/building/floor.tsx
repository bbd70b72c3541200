import { useParams } from 'react-router';
import { canManageBuildings } from '@/features/buildings/can-manage';
import { FloorEditPage } from '@/features/floors/components/floor-pages';
import { useSession } from '@/lib/session';
import { idParam, InvalidId } from '../shared/invalid-id';

export function Component() {
  const session = useSession();
  const id = idParam(useParams().id);
  if (id === null) return <InvalidId />;
  return <FloorEditPage key={id} id={id} canManage={canManageBuildings(session?.type)} />;
}
