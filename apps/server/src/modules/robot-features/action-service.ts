import { RECORDING_ACTIVE_STATES, type RobotAction, type RobotActionType, type RobotTeleop } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { robotService } from '../robots/robot-service.ts';
import { requireControls } from '../teleop/controls.ts';
import type { TeleopService } from '../teleop/teleop-service.ts';
import { camerasOf, capabilitiesOf, instantActionsOf } from './capabilities.ts';
import type { PhotoAttribution } from './photo-attribution.ts';
import { capabilityMissing, reachRobot, requireOnline, type ReachableRobot } from './robot-access.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'caches' | 'log' | 'robotLink'>;

/** Actions that move the robot or act on the people around it: only the one holding the controls (or anyone when nobody does). */
const CONTROLLED: ReadonlySet<RobotActionType> = new Set([
  'speak',
  'gimbalJog',
  'setPeriscopeHeight',
  'setRingLight',
  'setPatrolLamp',
  'setThermal',
  'answerCall',
  'endCall',
  'setAudio',
]);
/** Sent continuously while the operator holds a key: not worth an audit entry each. */
const NOT_AUDITED: ReadonlySet<RobotActionType> = new Set(['gimbalJog']);

const invalid = (path: string, message: string, text: string) =>
  new AppError('VALIDATION_FAILED', text, [{ path, message }]);

/** The action's fields besides `type`, as the string parameters of a VDA 5050 instant action. */
export function actionParameters(action: RobotAction): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(action)) if (key !== 'type') params[key] = String(value);
  return params;
}

/**
 * The operator screen's robot features (docs/api.md "Robot features"): what a robot can do (its
 * factsheet), its live teleop facts and who has the controls; and the features themselves, sent
 * as VDA 5050 instant actions after the access, online, capability, controls and recording checks.
 */
export function actionService(ctx: Ctx, deps: { teleop: TeleopService; photos: PhotoAttribution }) {
  const { robotLink: link, audit } = ctx;
  const robots = robotService(ctx);

  /** Rules of one action against what the robot said of itself; throws the first that fails. */
  function check(p: Principal, r: ReachableRobot, action: RobotAction): void {
    if (!instantActionsOf(r.details.factsheet).includes(action.type)) throw capabilityMissing(action.type);
    if (action.type === 'takePhoto' && !camerasOf(r.details.factsheet).includes(action.camera)) {
      throw invalid('camera', 'validation.invalid', `The robot has no camera ${action.camera}`);
    }
    if (action.type === 'setPeriscopeHeight') {
      const range = capabilitiesOf(r.details.factsheet).periscope;
      if (range && (action.height < range.min || action.height > range.max)) {
        throw invalid('height', 'validation.range', `The height must be between ${range.min} and ${range.max} m`);
      }
    }
    if (action.type === 'setThermal' && action.rangeMin >= action.rangeMax) {
      throw invalid('rangeMax', 'validation.range', 'The range maximum must be above its minimum');
    }
    if (CONTROLLED.has(action.type)) requireControls(deps.teleop, r.id, p);
    const recording = RECORDING_ACTIVE_STATES.includes(r.info.recording);
    if (action.type === 'startRecording' && recording) {
      throw new AppError('RECORDING_ALREADY_STARTED', 'The robot is already recording');
    }
    if (action.type === 'stopRecording' && !recording) {
      throw new AppError('RECORDING_NOT_STARTED', 'The robot is not recording');
    }
  }

  return {
    async teleop(p: Principal, id: number): Promise<RobotTeleop> {
      const robot = await robots.get(p, id);
      const r = reachRobot(link, p, id);
      return {
        robotId: robot.id,
        serialNo: robot.serialNo,
        name: robot.name,
        buildingId: robot.buildingId,
        capabilities: capabilitiesOf(r.details.factsheet),
        info: r.info,
        controller: deps.teleop.controllerOf(id),
      };
    },

    /** Checks in order: access, online, capability, controls, recording; then sends. Answers the action id. */
    async send(p: Principal, id: number, action: RobotAction, ip: string): Promise<{ actionId: string }> {
      const r = reachRobot(link, p, id);
      requireOnline(r);
      check(p, r, action);
      const params = actionParameters(action);
      const actionId = await link.instantAction(id, action.type, params);
      if (action.type === 'takePhoto') deps.photos.remember(actionId, id, p.operatorId);
      if (!NOT_AUDITED.has(action.type)) {
        await audit.record({
          operatorId: p.operatorId,
          organizationId: r.organizationId,
          action: 'robot.action',
          targetType: 'robot',
          targetId: id,
          ip,
          detail: { type: action.type, actionId, ...params },
        });
      }
      return { actionId };
    },
  };
}
