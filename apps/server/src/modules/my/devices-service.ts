import type { Device } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';

/** The "devices" page: the operator's sessions, revocable one by one or all others at once. */
export function devicesService({ db, clock, audit }: Pick<AppContext, 'db' | 'clock' | 'audit'>) {
  const live = (p: Principal) =>
    db
      .selectFrom('sessions')
      .where('operator_id', '=', p.operatorId)
      .where('state', '=', 'active')
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', clock().toISOString());

  return {
    async list(p: Principal): Promise<Device[]> {
      const rows = await live(p)
        .select(['id', 'device', 'ip', 'created_at', 'last_used_at'])
        .orderBy('last_used_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        device: r.device,
        ip: r.ip,
        createdAt: r.created_at,
        lastUsedAt: r.last_used_at,
        current: r.id === p.sessionId,
      }));
    },

    async revoke(p: Principal, sessionId: number, ip: string): Promise<void> {
      const result = await db
        .updateTable('sessions')
        .set({ revoked_at: clock().toISOString() })
        .where('id', '=', sessionId)
        .where('operator_id', '=', p.operatorId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw notFound('Device');
      await audit.record({
        operatorId: p.operatorId,
        organizationId: p.organizationId,
        action: 'session.revoke',
        targetType: 'session',
        targetId: sessionId,
        ip,
      });
    },

    async revokeOthers(p: Principal, ip: string): Promise<number> {
      const result = await db
        .updateTable('sessions')
        .set({ revoked_at: clock().toISOString() })
        .where('operator_id', '=', p.operatorId)
        .where('id', '!=', p.sessionId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      const n = Number(result.numUpdatedRows);
      await audit.record({
        operatorId: p.operatorId,
        organizationId: p.organizationId,
        action: 'session.revoke-others',
        targetType: 'operator',
        targetId: p.operatorId,
        ip,
        detail: { revoked: n },
      });
      return n;
    },
  };
}
