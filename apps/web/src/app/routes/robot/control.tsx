import { useQuery } from '@tanstack/react-query';
import { BuildingFilter, buildingFilterOptions } from '@/components/building-filter';
import { RobotControl } from '@/features/robots/components/robot-control';

export function Component() {
  // The building filter only helps operators who see more than one building.
  const buildings = useQuery(buildingFilterOptions());
  const several = (buildings.data?.length ?? 0) > 1;
  return <RobotControl buildingFilter={several ? <BuildingFilter allowAll resetParams={['group']} /> : undefined} />;
}
