import { buildingListSchema, floorListSchema, organizationListSchema } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { applyFilter, applyWhere, parseFilter, type ParsedFilter } from '../../lib/filter.ts';
import { canSeeBuilding, scopeWhere } from '../../lib/scope.ts';
import { cachedLists, type ListAnswer } from '../../lib/list-answer.ts';
import { fileKeyOfUrl, signFileUrl } from '../files/signed-url.ts';
import { buildingFilter, floorFilter, organizationFilter, toApiRow } from './specs.ts';

type Row = Record<string, unknown>;

type Ctx = Pick<AppContext, 'db' | 'config' | 'clock' | 'caches'>;

/** The read calls of spec section 7: buildings, organizations and floors, scoped and filtered. */
export function directoryService({ db, config, clock, caches }: Ctx) {
  const cachedList = cachedLists(caches.lists);

  /** Map images are answered as signed URLs, usable in `<img src>` without a bearer token. */
  const signedImg = (img: unknown) => {
    const key = typeof img === 'string' ? fileKeyOfUrl(config.apiBase, img) : null;
    return key ? signFileUrl(config.secretKey, config.apiBase, key, clock()) : img;
  };

  async function groupsOf(table: 'robot_groups' | 'flow_groups', buildingIds: number[]) {
    const byBuilding = new Map<number, Array<{ id: number; name: string }>>();
    if (buildingIds.length === 0) return byBuilding;
    const rows = await db
      .selectFrom(table)
      .select(['id', 'name', 'building_id'])
      .where('building_id', 'in', buildingIds)
      .orderBy('sort_order')
      .orderBy('id')
      .execute();
    for (const r of rows) {
      const list = byBuilding.get(r.building_id) ?? [];
      list.push({ id: r.id, name: r.name });
      byBuilding.set(r.building_id, list);
    }
    return byBuilding;
  }

  async function listBuildings(p: Principal, f: ParsedFilter) {
    const scoped = db
      .selectFrom('buildings')
      .where((eb) => scopeWhere(p, eb, { organization: 'buildings.organization_id', building: 'buildings.id' }));
    const [rows, count] = await Promise.all([
      applyFilter(scoped.selectAll(), f).execute(),
      applyWhere(scoped, f.where)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    const ids = rows.map((r) => r.id);
    const [groups, flowGroups] = await Promise.all([
      f.include.includes('groups') ? groupsOf('robot_groups', ids) : null,
      f.include.includes('flowGroups') ? groupsOf('flow_groups', ids) : null,
    ]);
    const items = rows.map((r) => ({
      ...toApiRow(r as Row, buildingFilter, f.fields),
      ...(groups ? { groups: groups.get(r.id) ?? [] } : {}),
      ...(flowGroups ? { flowGroups: flowGroups.get(r.id) ?? [] } : {}),
    }));
    return { items, total: Number(count.n) };
  }

  async function listOrganizations(p: Principal, f: ParsedFilter) {
    const scoped = db
      .selectFrom('organizations')
      .where((eb) => scopeWhere(p, eb, { organization: 'organizations.id' }));
    const [rows, count] = await Promise.all([
      applyFilter(scoped.selectAll(), f).execute(),
      applyWhere(scoped, f.where)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map((r) => toApiRow(r as Row, organizationFilter, f.fields)), total: Number(count.n) };
  }

  async function listFloors(buildingId: number, f: ParsedFilter) {
    const scoped = db.selectFrom('floors').where('floors.building_id', '=', buildingId);
    const [rows, count] = await Promise.all([
      applyFilter(scoped.selectAll(), f).execute(),
      applyWhere(scoped, f.where)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    const items = rows.map((r) => {
      const row = toApiRow(r as Row, floorFilter, f.fields);
      return 'img' in row ? { ...row, img: signedImg(row.img) } : row;
    });
    return { items, total: Number(count.n) };
  }

  return {
    buildings(p: Principal, rawFilter: string | undefined): Promise<ListAnswer> {
      return cachedList('buildings', p, rawFilter, buildingListSchema, () =>
        listBuildings(p, parseFilter(rawFilter, buildingFilter)),
      );
    },

    organizations(p: Principal, rawFilter: string | undefined): Promise<ListAnswer> {
      return cachedList('organizations', p, rawFilter, organizationListSchema, () =>
        listOrganizations(p, parseFilter(rawFilter, organizationFilter)),
      );
    },

    async floors(p: Principal, buildingId: number, rawFilter: string | undefined): Promise<ListAnswer> {
      const f = parseFilter(rawFilter, floorFilter);
      const b = await db
        .selectFrom('buildings')
        .select(['id', 'organization_id'])
        .where('id', '=', buildingId)
        .executeTakeFirst();
      // Another tenant's building is "not found", not "forbidden": its existence is not disclosed.
      if (!b || !canSeeBuilding(p, { id: b.id, organizationId: b.organization_id })) throw notFound('Building');
      return cachedList(`floors:${buildingId}`, p, rawFilter, floorListSchema, () => listFloors(buildingId, f));
    },
  };
}
