import type { Robot } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { scopeWhere } from '../../lib/scope.ts';
import { robotService } from '../robots/robot-service.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'caches' | 'log' | 'robotLink'>;

/**
 * The robot with this serial number in the caller's scope (the console and the operator screens
 * are addressed by serial: spec `/console/{serialNo}`, `/app/tele-ope/{mode}/{serialNo}`). The
 * answer is the robots service's own, so it is the same as `GET /robots/:id`.
 */
export function robotBySerial(ctx: Ctx) {
  const robots = robotService(ctx);
  return async (p: Principal, serialNo: string): Promise<Robot> => {
    const row = await ctx.db
      .selectFrom('robots')
      .select('id')
      .where('serial_no', '=', serialNo)
      .where('deleted_at', 'is', null)
      .where((eb) => scopeWhere(p, eb, { organization: 'robots.organization_id', building: 'robots.building_id' }))
      .executeTakeFirst();
    if (!row) throw notFound('Robot');
    return robots.get(p, row.id);
  };
}
