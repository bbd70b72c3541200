import type { RobotTeleopInfo } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { robotInScope, type TenantScope } from '../../lib/scope.ts';
import type { RobotDetails } from '../robot-link/types.ts';
import { NEUTRAL_TELEOP_INFO } from './capabilities.ts';

/** A robot the caller may reach, with what it last said of itself. */
export interface ReachableRobot {
  id: number;
  organizationId: number;
  buildingId: number;
  details: RobotDetails;
  info: RobotTeleopInfo;
}

const NOTHING_SAID: RobotDetails = {
  online: false,
  protocolVersion: null,
  state: null,
  factsheet: null,
  teleop: null,
  battery: null,
};

/**
 * The robot from the link's in-memory registry when the caller's scope reaches it (robotInScope);
 * an unknown, deleted or other tenant's robot is "not found". Cheap enough for every feature call
 * (gimbal jogs come several a second).
 */
export function reachRobot(link: AppContext['robotLink'], p: TenantScope, id: number): ReachableRobot {
  const r = link.robot(id);
  if (!r || !robotInScope(p, r)) throw notFound('Robot');
  const details = link.details(id) ?? NOTHING_SAID;
  return { ...r, details, info: details.teleop ?? NEUTRAL_TELEOP_INFO };
}

export function requireOnline(r: ReachableRobot): void {
  if (!r.details.online) throw new AppError('ROBOT_OFFLINE', 'The robot is offline');
}

export const capabilityMissing = (type: string) =>
  new AppError('CAPABILITY_MISSING', `The robot does not support ${type}`);
