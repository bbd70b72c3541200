import { OperatorType } from '@portal/contract';
import { PostgresAdapter, sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { BuildingTable, Database } from '../../db/schema.ts';
import { deleteById, findById, insertReturningId, rowExists, updateById, updateVersioned } from '../../db/rows.ts';
import { compiledPage, compiledRows } from '../../lib/compiled-list.ts';
import { applyFilter, countOf, type ParsedFilter, type WhereNode } from '../../lib/filter.ts';
import { filterSpec, ID_FIELD, TIMESTAMP_FIELDS } from '../../lib/filter-spec.ts';
import { scopeWhere, type TenantScope } from '../../lib/scope.ts';

/** Allow-list of `GET /buildings?filter=` (docs/architecture-decisions.md "API"). */
export const buildingFilter = filterSpec(
  'buildings',
  {
    ...ID_FIELD,
    name: 'string',
    prefecture: 'string',
    city: 'string',
    address: 'string',
    postalCode: 'string',
    latitude: 'number',
    longitude: 'number',
    organizationId: 'integer',
    status: 'integer',
    ipRestrictionEnabled: 'boolean',
    timeZone: 'string',
    ...TIMESTAMP_FIELDS,
  },
  { defaultOrder: 'updatedAt DESC', includes: ['groups', 'flowGroups'] },
);

export type BuildingRow = Selectable<BuildingTable>;
export type GroupTableName = 'robot_groups' | 'flow_groups';
export interface NamedGroup {
  id: number;
  name: string;
}
/** The groups of each listed building, by group table and building id. */
export type GroupsOfBuildings = Map<GroupTableName, Map<number, NamedGroup[]>>;

/** The group table of each `include` of the building list, in the order they are read. */
const GROUP_INCLUDES = [
  ['groups', 'robot_groups'],
  ['flowGroups', 'flow_groups'],
] as const;

/** The column of a listed building that holds its groups of `table` (PostgreSQL, `list`). */
const groupsColumn = (table: GroupTableName) => `list_${table}` as const;

/**
 * A building's groups of `table` as a JSON array of `{ id, name }` in their sort order, for the
 * page's own statement on PostgreSQL: one round trip for the page, its total and its groups, where
 * a statement of their own cost a round trip, the planning of a `union all` with an `in` list of up
 * to 64 parameters, and a row per group to read (docs/decisions/0002-read-caches.md "Fifth round").
 * The table name is one of two constants; the building is the outer row.
 */
const groupsJson = (table: GroupTableName) => {
  const each = sql`json_agg(json_build_object('id', g.id, 'name', g.name) order by g.sort_order, g.id)`;
  const all = sql`coalesce(${each}, '[]'::json)`;
  return sql<NamedGroup[]>`(select ${all} from ${sql.table(table)} as g where g.building_id = buildings.id)`;
};

/** The list padded to the next power of two by repeating its last entry (an `in` list answers the same). */
function padded(ids: number[]): number[] {
  let size = 1;
  while (size < ids.length) size *= 2;
  return size === ids.length ? ids : [...ids, ...Array<number>(size - ids.length).fill(ids[ids.length - 1]!)];
}

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

/** The SQL of buildings; `db` may be a transaction. */
export function buildingRepo(db: Kysely<Database>) {
  const onPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  /**
   * The groups of each building from one or more group tables (`union all`), in their sort order:
   * one statement for all of them, compiled once per set of tables and size of the id list (padded
   * to a power of two by repeating an id, so a few statements serve every page size).
   */
  async function groupsOfEach(
    tables: readonly GroupTableName[],
    buildingIds: number[],
  ): Promise<Map<GroupTableName, Map<number, NamedGroup[]>>> {
    const out = new Map<GroupTableName, Map<number, NamedGroup[]>>(tables.map((t) => [t, new Map()]));
    if (tables.length === 0 || buildingIds.length === 0) return out;
    const ids = padded(buildingIds);
    const rows = await compiledRows(db as never, `groups|${tables.join(',')}`, ids, (slots) => {
      const part = (table: GroupTableName) =>
        db
          .selectFrom(table)
          .select([sql.lit(table).as('source'), 'id', 'name', 'building_id', 'sort_order'])
          .where('building_id', 'in', slots as number[]);
      const [first, ...rest] = tables;
      return rest
        .reduce((q, t) => q.unionAll(part(t)), part(first!))
        .orderBy('source')
        .orderBy('sort_order')
        .orderBy('id');
    });
    for (const r of rows) {
      const byBuilding = out.get(r.source as GroupTableName)!;
      const list = byBuilding.get(r.building_id) ?? [];
      list.push({ id: r.id, name: r.name });
      byBuilding.set(r.building_id, list);
    }
    return out;
  }

  /** The groups of each building of one table, in their sort order. */
  async function groupsOf(table: GroupTableName, buildingIds: number[]): Promise<Map<number, NamedGroup[]>> {
    return (await groupsOfEach([table], buildingIds)).get(table)!;
  }

  /**
   * The total of a building list read from `building_counts` (kept by the triggers of migration 038) when
   * the where is none or the status alone and the scope is whole organizations; null otherwise (a general
   * operator's one building, any other where), when the buildings are counted.
   */
  function statusCount(scope: TenantScope, where: WhereNode | null) {
    if (scope.type === OperatorType.general) return null;
    const byStatus = where?.kind === 'compare' && where.column === 'buildings.status' && where.op === '=';
    if (where !== null && (!byStatus || Array.isArray(where.value))) return null;
    let q = db
      .selectFrom('building_counts')
      .where((eb) => scopeWhere(scope, eb, { organization: 'building_counts.organization_id' }));
    if (where?.kind === 'compare') q = q.where('building_counts.status', '=', where.value as number);
    return q.select(sql<number | string>`coalesce(sum(building_counts.n), 0)`.as('n'));
  }

  return {
    groupsOf,
    groupsOfEach,

    find: (id: number): Promise<BuildingRow | undefined> => findById(db, 'buildings', id),

    /** What the scope check of a building needs. */
    findScope: (id: number) => findById(db, 'buildings', id, ['id', 'organization_id', 'ip_restriction_enabled']),

    /**
     * The buildings of the scope as the filter asks, with the total of the filter's where and the
     * groups its `include` asks for (`groups`: robot groups, `flowGroups`: flow groups). On
     * PostgreSQL the groups come in the page's own statement (`groupsJson`), so the list is one
     * round trip; on SQLite, whose statements cost no round trip, from one more (`groupsOfEach`).
     */
    async list(
      scope: TenantScope,
      f: ParsedFilter,
    ): Promise<{ rows: BuildingRow[]; total: number; groups: GroupsOfBuildings }> {
      const tables = GROUP_INCLUDES.filter(([include]) => f.include.includes(include)).map(([, table]) => table);
      const inline = onPostgres && tables.length > 0;
      const { rows, total } = await compiledPage(db as never, 'buildings', scope, f, (s, sf) => {
        const scoped = db
          .selectFrom('buildings')
          .where((eb) => scopeWhere(s, eb, { organization: 'buildings.organization_id', building: 'buildings.id' }));
        let page = applyFilter(scoped.selectAll(), sf);
        // `sf.include` is part of the shape's key, so each set of includes has its own statement.
        if (inline) for (const table of tables) page = page.select(groupsJson(table).as(groupsColumn(table))) as never;
        return { page: page as never, count: (statusCount(s, sf.where) ?? countOf(scoped, sf.where)) as never };
      });
      if (!inline)
        return {
          rows: rows as BuildingRow[],
          total,
          groups: await groupsOfEach(
            tables,
            rows.map((r) => (r as BuildingRow).id),
          ),
        };
      const groups: GroupsOfBuildings = new Map();
      for (const table of tables) {
        const column = groupsColumn(table);
        const byBuilding = new Map<number, NamedGroup[]>();
        for (const r of rows as Array<BuildingRow & Record<string, unknown>>)
          byBuilding.set(r.id, r[column] as NamedGroup[]);
        groups.set(table, byBuilding);
      }
      return { rows: rows as BuildingRow[], total, groups };
    },

    organizationExists: (id: number): Promise<boolean> => rowExists(db, 'organizations', id),

    /** Operators (not deleted) still assigned to the building. */
    async liveOperatorCount(buildingId: number): Promise<number> {
      const row = await db
        .selectFrom('operators')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('building_id', '=', buildingId)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    insert: (values: Insertable<BuildingTable>): Promise<number> => insertReturningId(db, 'buildings', values),

    update: (id: number, values: Updateable<BuildingTable>): Promise<void> => updateById(db, 'buildings', id, values),

    /** Writes only while the stored version is still `version`; the number of rows written. */
    updateVersioned: (id: number, version: string, values: Updateable<BuildingTable>): Promise<bigint> =>
      updateVersioned(db, 'buildings', id, version, values),

    /** Everything of the building carries its organization (tenancy), so it moves along. */
    async moveChildren(buildingId: number, organizationId: number): Promise<void> {
      for (const table of BUILDING_CHILD_TABLES) {
        await db
          .updateTable(table)
          .set({ organization_id: organizationId })
          .where('building_id', '=', buildingId)
          .execute();
      }
      await db
        .updateTable('robot_setting_history')
        .set({ organization_id: organizationId })
        .where('robot_id', 'in', (eb) => eb.selectFrom('robots').select('id').where('building_id', '=', buildingId))
        .execute();
    },

    /**
     * Deletes the building's file rows and answers their keys (the bytes go once committed); deleted
     * operators keep their row (audit history) but no longer point at the building.
     */
    async releaseFilesAndOperators(buildingId: number): Promise<string[]> {
      const files = await db.selectFrom('files').select('key').where('building_id', '=', buildingId).execute();
      await db.deleteFrom('files').where('building_id', '=', buildingId).execute();
      await db
        .updateTable('operators')
        .set({ building_id: null })
        .where('building_id', '=', buildingId)
        .where('deleted_at', 'is not', null)
        .execute();
      return files.map((f) => f.key);
    },

    /** Floors, groups, speech texts, IP rules, links and options go with it (on delete cascade). */
    remove: (id: number): Promise<boolean> => deleteById(db, 'buildings', id),

    /** Whether the building's IP restriction is on. */
    async ipRestrictionEnabled(id: number): Promise<boolean> {
      const b = await db
        .selectFrom('buildings')
        .select('ip_restriction_enabled')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return b.ip_restriction_enabled === 1;
    },
  };
}
