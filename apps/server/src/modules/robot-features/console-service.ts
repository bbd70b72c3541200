import {
  OS_UPDATE_ACTION,
  OS_UPDATE_MIN_BATTERY,
  type ConsoleAction,
  type RobotConsole,
  type RobotLog,
} from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { robotService } from '../robots/robot-service.ts';
import { instantActionsOf } from './capabilities.ts';
import { capabilityMissing, reachRobot, requireOnline } from './robot-access.ts';
import { activityService } from '../activity/activity-service.ts';
import type { AuditAction } from '@portal/contract';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'caches' | 'log' | 'robotLink'>;

const plain = (v: object | null): Record<string, unknown> | null => (v ? { ...(v as Record<string, unknown>) } : null);

/**
 * The robot console (spec `/console/{serialNo}`, administrators only: the routes say `access:
 * 'admin'`): the robot as it reports itself, its message log, the standard instant actions and
 * the OS update (spec sections 4 and 8: battery at least 20%, the robot restarts afterwards).
 */
export function consoleService(ctx: Ctx) {
  const { robotLink: link, audit } = ctx;
  const robots = robotService(ctx);
  const activity = activityService(ctx);

  const record = (
    p: Principal,
    r: { id: number; organizationId: number },
    action: AuditAction,
    ip: string,
    detail: object,
  ) =>
    audit.record({
      operatorId: p.operatorId,
      organizationId: r.organizationId,
      action,
      targetType: 'robot',
      targetId: r.id,
      ip,
      detail: { ...detail },
    });

  return {
    async get(p: Principal, id: number): Promise<RobotConsole> {
      const robot = await robots.get(p, id);
      const r = reachRobot(link, p, id);
      return {
        robotId: id,
        serialNo: robot.serialNo,
        online: r.details.online,
        protocolVersion: r.details.protocolVersion,
        state: plain(r.details.state),
        factsheet: plain(r.details.factsheet),
        info: r.info,
        battery: r.details.battery,
      };
    },

    log(p: Principal, id: number, after: number | undefined): RobotLog {
      reachRobot(link, p, id);
      return link.watchLog(id, after);
    },

    async action(p: Principal, id: number, action: ConsoleAction, ip: string): Promise<{ actionId: string }> {
      const r = reachRobot(link, p, id);
      requireOnline(r);
      const actionId = await link.instantAction(id, action, {});
      await record(p, r, 'robot.console-action', ip, { action, actionId });
      return { actionId };
    },

    /** Checks in order: access, capability, online, battery (unknown counts as too low). */
    async osUpdate(p: Principal, id: number, ip: string): Promise<{ actionId: string }> {
      const r = reachRobot(link, p, id);
      if (!instantActionsOf(r.details.factsheet).includes(OS_UPDATE_ACTION)) throw capabilityMissing(OS_UPDATE_ACTION);
      requireOnline(r);
      const battery = r.details.battery;
      if (battery === null || battery < OS_UPDATE_MIN_BATTERY) {
        throw new AppError('OS_UPDATE_LOW_BATTERY', `Battery must be at least ${OS_UPDATE_MIN_BATTERY}% for OS update`);
      }
      if (r.info.updating) throw new AppError('CONFLICT', 'An OS update is already running');
      const actionId = await link.instantAction(id, OS_UPDATE_ACTION, {});
      await record(p, r, 'robot.os-update', ip, { actionId, battery, osVersion: r.info.osVersion });
      await activity.record({
        robotId: id,
        kind: 'osUpdate',
        code: 'requested',
        params: {
          operatorId: p.operatorId,
          operatorName: `${p.lastName} ${p.firstName}`.trim(),
          from: r.info.osVersion,
        },
      });
      return { actionId };
    },
  };
}
