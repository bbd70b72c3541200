import { buildingListSchema, isSystemAdmin, type Building, type BuildingInput } from '@portal/contract';
import type { Kysely } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { parseFilter, toApiRow } from '../../lib/filter.ts';
import { cachedLists, type ListAnswer } from '../../lib/list-answer.ts';
import { camelRow } from '../../lib/naming.ts';
import { expectVersioned, nextVersion } from '../../lib/versioned.ts';
import { liveRobotCount, purgeDeletedRobots } from './placement-repo.ts';
import { flowCountOfBuilding } from '../flows/flow-repo.ts';
import { buildingFilter, buildingRepo, type BuildingRow } from './building-repo.ts';
import { buildingInScope, nullIfEmpty, recorder, requireManager } from './common.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'fileStore'>;

/** How many records of each kind still depend on a building (a building in use is not deleted). */
export type BuildingUsage = Record<string, number>;

/**
 * What still belongs to the building: operators and robots (not deleted), flows (their library
 * commands are the organization's, so they cannot move along); devices and the like add their count
 * here when those capabilities arrive.
 */
export async function usageOf(db: Kysely<Database>, buildingId: number): Promise<BuildingUsage> {
  return {
    operators: await buildingRepo(db).liveOperatorCount(buildingId),
    robots: await liveRobotCount(db, { buildingId }),
    flows: await flowCountOfBuilding(db, buildingId),
  };
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

/** `GET /buildings`: the buildings of the caller's scope, filtered, with their groups when asked. */
export function buildingListService({ db, caches }: Pick<AppContext, 'db' | 'caches'>) {
  const cachedList = cachedLists(caches.lists);
  const repo = buildingRepo(db);
  return {
    list(p: Principal, rawFilter: string | undefined): Promise<ListAnswer> {
      return cachedList('buildings', p, rawFilter, buildingListSchema, async () => {
        const f = parseFilter(rawFilter, buildingFilter);
        const { rows, total, groups } = await repo.list(p, f);
        const robotGroups = groups.get('robot_groups');
        const flowGroups = groups.get('flow_groups');
        // The mapped row is a new object: add the relations to it (a spread of it per row costs more
        // than the rest of the mapping).
        const items = rows.map((r) => {
          const item = toApiRow(r, buildingFilter, f.fields);
          if (robotGroups) item.groups = robotGroups.get(r.id) ?? [];
          if (flowGroups) item.flowGroups = flowGroups.get(r.id) ?? [];
          return item;
        });
        return { items, total };
      });
    },
  };
}

export function buildingService({ db, clock, audit, fileStore }: Ctx) {
  const record = recorder(audit);
  const repo = buildingRepo(db);

  async function read(id: number): Promise<Building> {
    const row = await repo.find(id);
    if (!row) throw notFound('Building');
    const groups = await repo.groupsOfEach(['robot_groups', 'flow_groups'], [id]);
    return {
      ...toBuilding(row),
      groups: groups.get('robot_groups')?.get(id) ?? [],
      flowGroups: groups.get('flow_groups')?.get(id) ?? [],
    };
  }

  async function organizationExists(id: number): Promise<void> {
    if (!(await repo.organizationExists(id))) throw notFound('Organization');
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
    // A new building without a zone gets the column's default (Asia/Tokyo); an edit without one keeps it.
    ...(body.timeZone !== undefined ? { time_zone: body.timeZone } : {}),
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
      const id = await db.transaction().execute(async (trx) => {
        const created = await buildingRepo(trx).insert({
          ...columns(body),
          ip_restriction_enabled: 0,
          created_at: now,
          updated_at: now,
        });
        await record(p, ip, 'building.create', { type: 'building', id: created }, { name: body.name }, trx);
        return created;
      });
      return read(id);
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
        const rows = buildingRepo(trx);
        const written = await rows.updateVersioned(id, body.updatedAt, {
          ...columns(body),
          updated_at: nextVersion(clock(), body.updatedAt),
        });
        await expectVersioned(
          written,
          'building',
          async () => (await rows.find(id)) !== undefined,
          () => notFound('Building'),
        );
        if (moving) await rows.moveChildren(id, body.organizationId);
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
        const rows = buildingRepo(trx);
        const fileKeys = await rows.releaseFilesAndOperators(id);
        await purgeDeletedRobots(trx, { buildingId: id });
        // Recorded before the row goes, so that the entry keeps the building's name.
        await record(p, ip, 'building.delete', { type: 'building', id }, undefined, trx);
        await rows.remove(id);
        return fileKeys;
      });
      await Promise.all(keys.map((k) => fileStore.discard(k)));
    },
  };
}

export function toBuilding(r: BuildingRow): Building {
  const { status, ip_restriction_enabled, ...rest } = r;
  return {
    ...camelRow(rest),
    status: status as Building['status'],
    ipRestrictionEnabled: ip_restriction_enabled === 1,
  };
}
