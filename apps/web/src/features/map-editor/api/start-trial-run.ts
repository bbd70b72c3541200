import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /robots/:id/trial-run: 202 once the robot has the route (409 ROBOT_OFFLINE or NO_PATH). */
export const startTrialRun = ({ robotId, floorId, routeId }: { robotId: number; floorId: number; routeId: number }) =>
  api.command('POST', `/robots/${robotId}/trial-run`, { body: { floorId, routeId } });

export const useStartTrialRun = () => useMutation({ mutationFn: startTrialRun });
