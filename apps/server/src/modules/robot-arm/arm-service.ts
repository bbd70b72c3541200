import {
  DEPTH_CAMERA,
  type ArmPressInput,
  type ArmPressResult,
  type RobotDepthImage,
  type RobotPhotoMessage,
  type VdaState,
} from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { decodePhoto } from '../robot-features/photo-service.ts';
import { capabilityMissing, reachRobot, requireOnline, type ReachableRobot } from '../robot-features/robot-access.ts';
import { requireControls } from '../teleop/controls.ts';
import type { TeleopService } from '../teleop/teleop-service.ts';

type Ctx = Pick<AppContext, 'clock' | 'audit' | 'robotLink'>;

/** How long a robot has to send its depth image, and to finish a press. */
export const DEPTH_IMAGE_TIMEOUT_MS = 20_000;
export const ARM_PRESS_TIMEOUT_MS = 30_000;
/** The robot's resultDescription of a press that hit: `pressed {target}`. */
const PRESSED = /^pressed (\S+)$/;

/**
 * The arm and the depth camera (docs/api-robot-arm.md) over the robot link: the depth image is a
 * takeDepthImage instant action answered on the photo topic (camera `depth`, not stored among the
 * robot's photos); a press is a pressButton instant action at a pixel of that image, awaited in the
 * robot's state until FINISHED (`pressed {target}`, or a reason nothing was pressed) or FAILED.
 */
export function armService(ctx: Ctx, deps: { teleop: TeleopService }) {
  const { robotLink: link, audit, clock } = ctx;

  function reach(p: Principal, id: number, action: string): ReachableRobot {
    const r = reachRobot(link, p, id);
    requireOnline(r);
    if (!link.announces(id, action)) throw capabilityMissing(action);
    return r;
  }

  /**
   * Sends the action and waits for what `match` finds in the robot's messages about it (listening
   * from before the send, so an answer that comes at once is not missed).
   */
  async function sendAndAwait<T>(
    robotId: number,
    action: string,
    params: Record<string, string>,
    timeoutMs: number,
    listen: (found: (actionId: string, value: T) => void) => () => void,
    late: string,
  ): Promise<{ actionId: string; value: T }> {
    const seen = new Map<string, T>();
    let want: string | null = null;
    let resolve: ((v: T) => void) | null = null;
    const off = listen((actionId, value) => {
      if (want === null) seen.set(actionId, value);
      else if (actionId === want) resolve?.(value);
    });
    try {
      const actionId = await link.instantAction(robotId, action, params);
      want = actionId;
      const early = seen.get(actionId);
      if (early !== undefined) return { actionId, value: early };
      const value = await new Promise<T>((ok, fail) => {
        const timer = setTimeout(() => fail(new AppError('ROBOT_OFFLINE', late)), timeoutMs);
        timer.unref();
        resolve = (v) => {
          clearTimeout(timer);
          ok(v);
        };
      });
      return { actionId, value };
    } finally {
      off();
    }
  }

  return {
    /** The robot's depth image now. */
    async depthImage(p: Principal, id: number): Promise<RobotDepthImage> {
      reach(p, id, 'takeDepthImage');
      const { value } = await sendAndAwait<RobotPhotoMessage>(
        id,
        'takeDepthImage',
        {},
        DEPTH_IMAGE_TIMEOUT_MS,
        (found) =>
          link.on('photo', (e) => {
            if (e.robotId === id && e.message.camera === DEPTH_CAMERA) found(e.message.actionId, e.message);
          }),
        `The robot sent no depth image within ${DEPTH_IMAGE_TIMEOUT_MS / 1000} s`,
      );
      if (value.contentType !== 'image/png') throw new AppError('INTERNAL', 'The depth image is not a PNG');
      const bytes = decodePhoto(value.data, value.contentType);
      if (typeof bytes === 'string') throw new AppError('INTERNAL', `The robot's depth image was refused: ${bytes}`);
      return {
        contentType: 'image/png',
        width: value.width,
        height: value.height,
        data: value.data,
        takenAt: clock().toISOString(),
      };
    },

    /** Presses with an arm at a pixel of the depth image; answers once the arm is done. */
    async press(p: Principal, id: number, input: ArmPressInput, ip: string): Promise<ArmPressResult> {
      const r = reach(p, id, 'pressButton');
      requireControls(deps.teleop, id, p);
      const params = { arm: input.arm, u: String(input.u), v: String(input.v) };
      const { actionId, value } = await sendAndAwait<VdaState['actionStates'][number]>(
        id,
        'pressButton',
        params,
        ARM_PRESS_TIMEOUT_MS,
        (found) =>
          link.on('state', (e) => {
            if (e.robotId !== id) return;
            for (const a of e.state.actionStates) {
              if (a.actionStatus === 'FINISHED' || a.actionStatus === 'FAILED') found(a.actionId, a);
            }
          }),
        `The robot did not finish the press within ${ARM_PRESS_TIMEOUT_MS / 1000} s`,
      );
      const description = value.resultDescription ?? '';
      const hit = value.actionStatus === 'FINISHED' ? PRESSED.exec(description) : null;
      const result: ArmPressResult = hit ? { hit: true, target: hit[1]! } : { hit: false, reason: description };
      await audit.record({
        operatorId: p.operatorId,
        organizationId: r.organizationId,
        action: 'robot.action',
        targetType: 'robot',
        targetId: id,
        ip,
        detail: { type: 'pressButton', actionId, ...params, result: hit ? hit[1]! : 'none' },
      });
      return result;
    },
  };
}
