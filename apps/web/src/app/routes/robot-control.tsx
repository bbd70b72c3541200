import { useCurrentBuilding } from '@/features/location/use-current-building';
import { RobotControlOverview } from '@/features/robots/components/robot-control-overview';

export function Component() {
  const { buildingId, building } = useCurrentBuilding();
  return <RobotControlOverview buildingId={buildingId} buildingName={building?.name ?? null} />;
}
