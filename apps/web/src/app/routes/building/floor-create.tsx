import { useParams } from 'react-router';
import { Forbidden } from '@/app/guards/require-role';
import { useBuilding } from '@/features/buildings/api/get-building';
import { canManageBuildings } from '@/features/buildings/can-manage';
import { FloorCreatePage } from '@/features/floors/components/floor-pages';
import { useSession } from '@/lib/session';
import { idParam, InvalidId } from '../shared/invalid-id';

function WithBuilding({ buildingId }: { buildingId: number }) {
  const building = useBuilding(buildingId);
  return <FloorCreatePage buildingId={buildingId} buildingName={building.data?.name} />;
}

export function Component() {
  const session = useSession();
  const buildingId = idParam(useParams().buildingId);
  if (buildingId === null) return <InvalidId />;
  if (!canManageBuildings(session?.type)) return <Forbidden />;
  return <WithBuilding buildingId={buildingId} />;
}
