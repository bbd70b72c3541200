import { mapOps } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

/** POST /robots/:id/trial-run: 202 once the robot has the route (409 ROBOT_OFFLINE or NO_PATH). */
export const useStartTrialRun = () =>
  useOpMutation(mapOps.trialRunRoute, {
    args: ({ robotId, floorId, routeId }: { robotId: number; floorId: number; routeId: number }) => ({
      params: { id: robotId },
      body: { floorId, routeId },
    }),
    invalidates: [],
  });
