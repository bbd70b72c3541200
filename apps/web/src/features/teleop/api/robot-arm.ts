import { robotArmOps, type ArmPressInput } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery, useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** The depth image refreshes this often while shown (ms). */
export const DEPTH_REFRESH_MS = 3000;

/** GET /robots/:id/depth-image: what the robot's depth camera sees now (PNG, base64). */
export const robotDepthImageQueryOptions = (robotId: number) =>
  opQuery(robotArmOps.getRobotDepthImage, queryKeys.teleop.part(robotId, 'depth-image'), { params: { id: robotId } });

export const useRobotDepthImage = (robotId: number, options: { enabled?: boolean } = {}) =>
  useQuery({ ...robotDepthImageQueryOptions(robotId), refetchInterval: DEPTH_REFRESH_MS, retry: false, ...options });

/**
 * POST /robots/:id/arm-press: the arm presses at a pixel of the depth image; answers once it is done
 * ({ hit, target } or { hit: false, reason }). Quiet: the panel shows what went wrong itself.
 */
export const useArmPress = (robotId: number) =>
  useOpMutation(robotArmOps.pressRobotButton, {
    args: (body: ArmPressInput) => ({ params: { id: robotId }, body, quiet: true }),
    invalidates: [],
  });
