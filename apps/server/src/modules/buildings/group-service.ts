import type { Group } from '@portal/contract';
import type { Selectable } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { GroupTable } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { assertRowInScope, buildingInScope, nextVersion, recorder, requireManager, staleUpdate } from './common.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit'>;

/** Robot groups and flow groups share one shape (named, ordered, per building) and one service. */
export type GroupKind = 'robot-group' | 'flow-group';
const tableOf = { 'robot-group': 'robot_groups', 'flow-group': 'flow_groups' } as const;
const labelOf = { 'robot-group': 'Robot group', 'flow-group': 'Flow group' } as const;

export function groupService({ db, clock, audit }: Ctx, kind: GroupKind) {
  const table = tableOf[kind];
  const label = labelOf[kind];
  const record = recorder(audit);

  async function find(p: Principal, id: number) {
    const row = await db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
    return assertRowInScope(p, row, label);
  }

  const list = (buildingId: number) =>
    db
      .selectFrom(table)
      .selectAll()
      .where('building_id', '=', buildingId)
      .orderBy('sort_order')
      .orderBy('id')
      .execute();

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
        const last = await trx
          .selectFrom(table)
          .select((eb) => eb.fn.max('sort_order').as('m'))
          .where('building_id', '=', b.id)
          .executeTakeFirst();
        const sortOrder = last?.m == null ? 0 : Number(last.m) + 1;
        const row = await trx
          .insertInto(table)
          .values({
            organization_id: b.organizationId,
            building_id: b.id,
            name: body.name.trim(),
            sort_order: sortOrder,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await record(p, ip, `${kind}.create`, { type: kind, id: row.id }, { buildingId: b.id, name: body.name }, trx);
        return row.id;
      });
      return toGroup(await find(p, id));
    },

    async update(p: Principal, id: number, body: { name: string; updatedAt: string }, ip: string): Promise<Group> {
      requireManager(p);
      await find(p, id);
      await db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable(table)
          .set({ name: body.name.trim(), updated_at: nextVersion(clock(), body.updatedAt) })
          .where('id', '=', id)
          .where('updated_at', '=', body.updatedAt)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) throw staleUpdate(label.toLowerCase());
        await record(p, ip, `${kind}.update`, { type: kind, id }, { name: body.name }, trx);
      });
      return toGroup(await find(p, id));
    },

    async remove(p: Principal, id: number, ip: string): Promise<void> {
      requireManager(p);
      await find(p, id);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom(table).where('id', '=', id).execute();
        await record(p, ip, `${kind}.delete`, { type: kind, id }, undefined, trx);
      });
    },

    /** `ids` must be exactly the building's groups, in the new order; sort orders become 0..n-1. */
    async reorder(p: Principal, buildingId: number, ids: number[], ip: string): Promise<Group[]> {
      requireManager(p);
      await buildingInScope(db, p, buildingId);
      await db.transaction().execute(async (trx) => {
        const current = await trx.selectFrom(table).select('id').where('building_id', '=', buildingId).execute();
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
          await trx.updateTable(table).set({ sort_order: index }).where('id', '=', groupId).execute();
        }
        await record(p, ip, `${kind}.reorder`, { type: 'building', id: buildingId }, { ids }, trx);
      });
      return (await list(buildingId)).map(toGroup);
    },
  };
}

function toGroup(r: Selectable<GroupTable>): Group {
  return {
    id: r.id,
    buildingId: r.building_id,
    name: r.name,
    sortOrder: r.sort_order,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
