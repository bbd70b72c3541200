import type { Device } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { devicesRepo } from './devices-repo.ts';

/** The "devices" page: the operator's sessions, revocable one by one or all others at once. */
export function devicesService({ db, clock, audit }: Pick<AppContext, 'db' | 'clock' | 'audit'>) {
  const repo = devicesRepo(db);

  return {
    async list(p: Principal): Promise<Device[]> {
      const rows = await repo.live(p.operatorId, clock().toISOString());
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
      if (!(await repo.revoke(p.operatorId, sessionId, clock().toISOString()))) throw notFound('Device');
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
      const n = await repo.revokeOthers(p.operatorId, p.sessionId, clock().toISOString());
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
