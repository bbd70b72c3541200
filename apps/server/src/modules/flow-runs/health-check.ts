import { FLOW_MIN_BATTERY_PERCENT, floorIdOfMap, type HealthProblem } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { activityService } from '../activity/activity-service.ts';
import type { RobotDetails } from '../robot-link/types.ts';

export interface HealthCheckResult {
  ok: boolean;
  /** Every problem found (not only the first), in the order of HEALTH_PROBLEMS. */
  problems: HealthProblem[];
}

/**
 * The health check of a robot before a flow on `floorId` (a pure function of what the robot link
 * knows of it): online, emergency stop released, battery at or above `minBattery`, position known
 * (initialized) on the flow's floor, no FATAL error in its state.
 */
export function checkHealth(
  robot: RobotDetails | null,
  floorId: number,
  minBattery: number = FLOW_MIN_BATTERY_PERCENT,
): HealthCheckResult {
  const problems: HealthProblem[] = [];
  const state = robot?.state ?? null;
  if (!robot?.online || !state) {
    // Nothing else of an offline robot can be trusted: its last state may be old.
    problems.push('offline');
    return { ok: false, problems };
  }
  if (state.safetyState.eStop !== 'NONE') problems.push('emergencyStop');
  if (state.batteryState.batteryCharge < minBattery) problems.push('lowBattery');
  const position = state.agvPosition;
  if (!position || !position.positionInitialized) problems.push('positionUnknown');
  else if (floorIdOfMap(position.mapId) !== floorId) problems.push('wrongFloor');
  if (state.errors.some((e) => e.errorLevel === 'FATAL' && e.errorType !== 'emergencyStop'))
    problems.push('hardwareError');
  return { ok: problems.length === 0, problems };
}

/**
 * Runs the check for a flow about to start on a robot and writes the result to the robot's activity
 * log (a failure at emergency level, a pass at debug level). Only the server that starts the run
 * calls it, so the entry is written once.
 */
export async function healthCheckBeforeRun(
  ctx: Pick<AppContext, 'db' | 'clock' | 'robotLink'>,
  robotId: number,
  flow: { id: number; name: string; floorId: number },
  minBattery: number = FLOW_MIN_BATTERY_PERCENT,
): Promise<HealthCheckResult> {
  const details = ctx.robotLink.details(robotId);
  const result = checkHealth(details, flow.floorId, minBattery);
  await activityService(ctx).record({
    robotId,
    kind: 'healthCheck',
    code: result.ok ? 'passed' : 'failed',
    params: {
      flowId: flow.id,
      flowName: flow.name,
      problems: result.problems.join(','),
      battery: details?.state?.batteryState.batteryCharge ?? null,
    },
  });
  return result;
}
