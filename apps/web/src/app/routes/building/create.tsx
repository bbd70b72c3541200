import { Forbidden } from '@/app/guards/require-role';
import { canManageBuildings } from '@/features/buildings/can-manage';
import { BuildingCreate } from '@/features/buildings/components/building-create';
import { useSession } from '@/lib/session';

export function Component() {
  const session = useSession();
  if (!session || !canManageBuildings(session.type)) return <Forbidden />;
  return <BuildingCreate session={session} />;
}
