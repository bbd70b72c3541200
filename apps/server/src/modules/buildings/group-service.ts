import type { Group } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { camelRow } from '../../lib/naming.ts';
import { expectVersioned, nextVersion } from '../../lib/versioned.ts';
import { assertRowInScope, buildingInScope, recorder, requireManager } from './common.ts';
import { groupRepo, type GroupRow } from './group-repo.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit'>;

/** Robot groups and flow groups share one shape (named, ordered, per building) and one service. */
export type GroupKind = 'robot-group' | 'flow-group';
const tableOf = { 'robot-group': 'robot_groups', 'flow-group': 'flow_groups' } as const;
const labelOf = { 'robot-group': 'Robot group', 'flow-group': 'Flow group' } as const;

export function groupService({ db, clock, audit }: Ctx, kind: GroupKind) {
  const table = tableOf[kind];
  const label = labelOf[kind];
  const record = recorder(audit);
  const repo = groupRepo(db, table);

  async function find(p: Principal, id: number) {
    return assertRowInScope(p, await repo.find(id), label);
  }

  const list = (buildingId: number) => repo.listOf(buildingId);

  return {
    async list(p: Principal, buildingId: number): Promise<Group[]> {
      await buildingInScope(db, p, buildingId);
      return (await list(buildingId)).map(toGroup);
    },

    async get(p: Principal, id: number): Promise<Group> {
      return toGroup(await find(p, id));
    },

    /** New groups go last. */
    async create(p: Principal, body: { buildingId: number; name: string }, ip: string): Promise<Group> {
      requireManager(p);
      const b = await buildingInScope(db, p, body.buildingId);
      const now = clock().toISOString();
      const id = await db.transaction().execute(async (trx) => {
        const rows = groupRepo(trx, table);
        const groupId = await rows.insert({
          organization_id: b.organizationId,
          building_id: b.id,
          name: body.name.trim(),
          sort_order: await rows.nextSortOrder(b.id),
          created_at: now,
          updated_at: now,
        });
        await record(p, ip, `${kind}.create`, { type: kind, id: groupId }, { buildingId: b.id, name: body.name }, trx);
        return groupId;
      });
      return toGroup(await find(p, id));
    },

    async update(p: Principal, id: number, body: { name: string; updatedAt: string }, ip: string): Promise<Group> {
      requireManager(p);
      await find(p, id);
      await db.transaction().execute(async (trx) => {
        const rows = groupRepo(trx, table);
        const written = await rows.updateVersioned(id, body.updatedAt, {
          name: body.name.trim(),
          updated_at: nextVersion(clock(), body.updatedAt),
        });
        await expectVersioned(
          written,
          label.toLowerCase(),
          async () => (await rows.find(id)) !== undefined,
          () => notFound(label),
        );
        await record(p, ip, `${kind}.update`, { type: kind, id }, { name: body.name }, trx);
      });
      return toGroup(await find(p, id));
    },

    async remove(p: Principal, id: number, ip: string): Promise<void> {
      requireManager(p);
      await find(p, id);
      await db.transaction().execute(async (trx) => {
        // Recorded before the row goes, so that the entry keeps the group's name.
        await record(p, ip, `${kind}.delete`, { type: kind, id }, undefined, trx);
        await groupRepo(trx, table).remove(id);
      });
    },

    /** `ids` must be exactly the building's groups, in the new order; sort orders become 0..n-1. */
    async reorder(p: Principal, buildingId: number, ids: number[], ip: string): Promise<Group[]> {
      requireManager(p);
      await buildingInScope(db, p, buildingId);
      await db.transaction().execute(async (trx) => {
        const rows = groupRepo(trx, table);
        const current = await rows.listOf(buildingId);
        const known = new Set(current.map((r) => r.id));
        const same = ids.length === known.size && new Set(ids).size === ids.length && ids.every((i) => known.has(i));
        if (!same) {
          throw new AppError(
            'VALIDATION_FAILED',
            `ids must list each ${label.toLowerCase()} of the building exactly once`,
            [{ path: 'ids', message: 'validation.reorderMismatch' }],
          );
        }
        for (const [index, groupId] of ids.entries()) {
          await rows.setSortOrder(groupId, index);
        }
        await record(p, ip, `${kind}.reorder`, { type: 'building', id: buildingId }, { ids }, trx);
      });
      return (await list(buildingId)).map(toGroup);
    },
  };
}

function toGroup(r: GroupRow): Group {
  return camelRow(r, ['id', 'building_id', 'name', 'sort_order', 'created_at', 'updated_at']);
}
