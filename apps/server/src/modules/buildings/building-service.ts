import { isSystemAdmin, type Building, type BuildingInput } from '@portal/contract';
import type { Kysely, Selectable } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { BuildingTable, Database } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { liveRobotCount, purgeDeletedRobots } from '../robots/robot-usage.ts';
import { buildingInScope, nextVersion, nullIfEmpty, recorder, requireManager, staleUpdate } from './common.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'fileStore'>;

/** Tables whose rows belong to a building and carry its organization (moved with it). */
const BUILDING_CHILD_TABLES = [
  'building_ip_rules',
  'robot_groups',
  'flow_groups',
  'floors',
  'speech_texts',
  'building_links',
  'building_options',
  'files',
  'notification_targets',
  // Only deleted robots can be left when a building moves (live ones keep it in use).
  'robots',
] as const;

/** How many records of each kind still depend on a building (a building in use is not deleted). */
export type BuildingUsage = Record<string, number>;

/**
 * What still belongs to the building: operators and robots (not deleted); devices and the like add
 * their count here when those capabilities arrive.
 */
export async function usageOf(db: Kysely<Database>, buildingId: number): Promise<BuildingUsage> {
  const operators = await db
    .selectFrom('operators')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('building_id', '=', buildingId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { operators: Number(operators.n), robots: await liveRobotCount(db, { buildingId }) };
}

const inUse = (usage: BuildingUsage, doing: string) => {
  const kinds = Object.entries(usage).filter(([, n]) => n > 0);
  if (kinds.length === 0) return null;
  const list = kinds.map(([kind, n]) => `${n} ${kind}`).join(', ');
  // details[].code carries the count, so the web app can say "3 operators" in its own words.
  return new AppError(
    'IN_USE',
    `The building cannot be ${doing}: ${list} still belong to it`,
    kinds.map(([kind, n]) => ({ path: kind, message: 'validation.inUse', code: String(n) })),
  );
};

export function buildingService({ db, clock, audit, fileStore }: Ctx) {
  const record = recorder(audit);

  async function namedGroups(table: 'robot_groups' | 'flow_groups', buildingId: number) {
    return db
      .selectFrom(table)
      .select(['id', 'name'])
      .where('building_id', '=', buildingId)
      .orderBy('sort_order')
      .orderBy('id')
      .execute();
  }

  async function read(id: number): Promise<Building> {
    const row = await db.selectFrom('buildings').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Building');
    const [groups, flowGroups] = await Promise.all([namedGroups('robot_groups', id), namedGroups('flow_groups', id)]);
    return { ...toBuilding(row), groups, flowGroups };
  }

  async function organizationExists(id: number): Promise<void> {
    const org = await db.selectFrom('organizations').select('id').where('id', '=', id).executeTakeFirst();
    if (!org) throw notFound('Organization');
  }

  const columns = (body: BuildingInput) => ({
    organization_id: body.organizationId,
    name: body.name.trim(),
    prefecture: nullIfEmpty(body.prefecture),
    city: nullIfEmpty(body.city),
    address: nullIfEmpty(body.address),
    postal_code: nullIfEmpty(body.postalCode),
    latitude: body.latitude,
    longitude: body.longitude,
    status: body.status,
  });

  return {
    async get(p: Principal, id: number): Promise<Building> {
      await buildingInScope(db, p, id);
      return read(id);
    },

    async create(p: Principal, body: BuildingInput, ip: string): Promise<Building> {
      requireManager(p);
      if (!isSystemAdmin(p.type) && body.organizationId !== p.organizationId) {
        throw forbidden('Buildings can only be created in your own organization');
      }
      await organizationExists(body.organizationId);
      const now = clock().toISOString();
      const row = await db.transaction().execute(async (trx) => {
        const created = await trx
          .insertInto('buildings')
          .values({ ...columns(body), ip_restriction_enabled: 0, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        await record(p, ip, 'building.create', { type: 'building', id: created.id }, { name: body.name }, trx);
        return created;
      });
      return read(row.id);
    },

    async update(p: Principal, id: number, body: BuildingInput & { updatedAt: string }, ip: string): Promise<Building> {
      requireManager(p);
      const current = await buildingInScope(db, p, id);
      const moving = body.organizationId !== current.organizationId;
      if (moving) {
        if (!isSystemAdmin(p.type))
          throw forbidden('Only system administrators can move a building to another organization');
        await organizationExists(body.organizationId);
        const refused = inUse(await usageOf(db, id), 'moved to another organization');
        if (refused) throw refused;
      }
      await db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('buildings')
          .set({ ...columns(body), updated_at: nextVersion(clock(), body.updatedAt) })
          .where('id', '=', id)
          .where('updated_at', '=', body.updatedAt)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) throw staleUpdate('building');
        // Everything of the building carries its organization (tenancy), so it moves along.
        if (moving) {
          for (const table of BUILDING_CHILD_TABLES) {
            await trx
              .updateTable(table)
              .set({ organization_id: body.organizationId })
              .where('building_id', '=', id)
              .execute();
          }
          await trx
            .updateTable('robot_setting_history')
            .set({ organization_id: body.organizationId })
            .where('robot_id', 'in', (eb) => eb.selectFrom('robots').select('id').where('building_id', '=', id))
            .execute();
        }
        await record(
          p,
          ip,
          'building.update',
          { type: 'building', id },
          moving ? { organizationId: { from: current.organizationId, to: body.organizationId } } : undefined,
          trx,
        );
      });
      return read(id);
    },

    async remove(p: Principal, id: number, ip: string): Promise<void> {
      requireManager(p);
      await buildingInScope(db, p, id);
      const refused = inUse(await usageOf(db, id), 'deleted');
      if (refused) throw refused;
      const keys = await db.transaction().execute(async (trx) => {
        const files = await trx.selectFrom('files').select('key').where('building_id', '=', id).execute();
        await trx.deleteFrom('files').where('building_id', '=', id).execute();
        // Deleted operators keep their row (audit history) but no longer point at the building.
        await trx
          .updateTable('operators')
          .set({ building_id: null })
          .where('building_id', '=', id)
          .where('deleted_at', 'is not', null)
          .execute();
        await purgeDeletedRobots(trx, { buildingId: id });
        // Floors, groups, speech texts, IP rules, links and options go with it (on delete cascade).
        await trx.deleteFrom('buildings').where('id', '=', id).execute();
        await record(p, ip, 'building.delete', { type: 'building', id }, undefined, trx);
        return files.map((f) => f.key);
      });
      await Promise.all(keys.map((k) => fileStore.discard(k)));
    },
  };
}

export function toBuilding(r: Selectable<BuildingTable>): Building {
  return {
    id: r.id,
    name: r.name,
    prefecture: r.prefecture,
    city: r.city,
    address: r.address,
    postalCode: r.postal_code,
    latitude: r.latitude,
    longitude: r.longitude,
    organizationId: r.organization_id,
    status: r.status as Building['status'],
    ipRestrictionEnabled: r.ip_restriction_enabled === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
