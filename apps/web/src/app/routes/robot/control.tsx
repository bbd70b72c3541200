import { useQuery } from '@tanstack/react-query';
import { BuildingFilter, buildingFilterOptions } from '@/components/building-filter';
import { useRunningFlowNotes } from '@/features/flow-runs/components/running-flow';
import { RobotControl } from '@/features/robots/components/robot-control';

export function Component() {
  // The building filter only helps operators who see more than one building.
  const buildings = useQuery(buildingFilterOptions());
  const several = (buildings.data?.length ?? 0) > 1;
  // Each card names the robot's running flow and its step.
  const runningFlows = useRunningFlowNotes();
  return (
    <RobotControl
      buildingFilter={several ? <BuildingFilter allowAll resetParams={['group']} /> : undefined}
      robotExtra={runningFlows}
    />
  );
}
