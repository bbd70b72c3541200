import type { Principal } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import type { TeleopService } from './teleop-service.ts';

/** What the controls rule reads of the teleop service. */
export type ControlsLock = Pick<TeleopService, 'controllerOf'>;

/**
 * The controls rule (issue 12): what changes what a robot does (its order paused, resumed or
 * cancelled, driving, lights, speech...) is for the operator holding the controls, or anyone while
 * nobody holds them. A watcher of someone else's robot is refused with TELEOP_LOCKED (409) naming
 * the controller; an administrator takes over first.
 */
export function requireControls(lock: ControlsLock, robotId: number, p: Pick<Principal, 'operatorId'>): void {
  const controller = lock.controllerOf(robotId);
  if (controller && controller.operatorId !== p.operatorId) {
    throw new AppError('TELEOP_LOCKED', `Being operated by ${controller.name}`);
  }
}
