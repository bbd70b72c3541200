import {
  ARM_MODELS,
  ARM_TYPES,
  OperatorType,
  isSystemAdmin,
  poseEdgeSchema,
  type ArmModel,
  type ArmTypeCode,
  type PoseDef,
  type PoseNetwork,
} from '@portal/contract';
import { z } from 'zod';
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { Database, PoseDefTable, PoseNetworkTable } from '../../db/schema.ts';
import { deleteById, findById, insertReturningId, rowExists, updateVersioned } from '../../db/rows.ts';
import { applyFilter, applyWhere, type ParsedFilter } from '../../lib/filter.ts';
import { filterSpec, ID_FIELD, TENANT_FIELDS, TIMESTAMP_FIELDS } from '../../lib/filter-spec.ts';
import type { TenantScope } from '../../lib/scope.ts';

/** The filter fields of pose definitions and networks (the same columns in both tables). */
const poseFields = {
  ...ID_FIELD,
  name: 'string',
  armModel: 'integer',
  armType: 'integer',
  ...TENANT_FIELDS,
  ...TIMESTAMP_FIELDS,
} as const;

/** Allow-list of `GET /pose-defs?filter=` (docs/architecture-decisions.md "API"). */
export const poseDefFilter = filterSpec('pose_defs', poseFields, { defaultOrder: 'name ASC' });

/** Allow-list of `GET /pose-networks?filter=`. */
export const poseNetworkFilter = filterSpec('pose_networks', poseFields, { defaultOrder: 'name ASC' });

type PoseTable = 'pose_defs' | 'pose_networks';

/**
 * Tenancy of poses and networks: system admins all; others their organization; general operators
 * only the organization-wide rows and those of their own building.
 */
export function poseScope<T extends PoseTable>(p: TenantScope, table: T) {
  return (eb: ExpressionBuilder<Database, T>) => {
    const org = `${table}.organization_id` as never;
    const building = `${table}.building_id` as never;
    if (isSystemAdmin(p.type)) return eb.and([]);
    const parts = [eb(eb.ref(org), '=', p.organizationId as never)];
    if (p.type === OperatorType.general) {
      parts.push(eb.or([eb(eb.ref(building), 'is', null), eb(eb.ref(building), '=', (p.buildingId ?? -1) as never)]));
    }
    return eb.and(parts);
  };
}

/** May the caller see a row of this organization and building? (The same rule as poseScope.) */
export function canSeePoseRow(p: TenantScope, row: { organization_id: number; building_id: number | null }): boolean {
  if (isSystemAdmin(p.type)) return true;
  if (row.organization_id !== p.organizationId) return false;
  return p.type !== OperatorType.general || row.building_id === null || row.building_id === p.buildingId;
}

export const poseDefColumns = [
  'pose_defs.id',
  'pose_defs.organization_id',
  'pose_defs.building_id',
  'buildings.name as building_name',
  'pose_defs.name',
  'pose_defs.arm_model',
  'pose_defs.arm_type',
  'pose_defs.arms',
  'pose_defs.periscope_mm',
  'pose_defs.created_at',
  'pose_defs.updated_at',
] as const;

export const poseNetworkColumns = [
  'pose_networks.id',
  'pose_networks.organization_id',
  'pose_networks.building_id',
  'buildings.name as building_name',
  'pose_networks.name',
  'pose_networks.arm_model',
  'pose_networks.arm_type',
  'pose_networks.edges',
  'pose_networks.created_at',
  'pose_networks.updated_at',
] as const;

/** A stored row with the name of its building. */
export type PoseDefRow = Selectable<PoseDefTable> & { building_name: string | null };
export type PoseNetworkRow = Selectable<PoseNetworkTable> & { building_name: string | null };

const armsJson = z.array(z.array(z.number()));
const edgesJson = z.array(poseEdgeSchema);
const asModel = (v: number) => ((ARM_MODELS as readonly number[]).includes(v) ? (v as ArmModel) : 100);
const asType = (v: number) => ((ARM_TYPES as readonly number[]).includes(v) ? (v as ArmTypeCode) : 1);

export const toPoseDef = (r: PoseDefRow): PoseDef => ({
  id: r.id,
  organizationId: r.organization_id,
  buildingId: r.building_id,
  buildingName: r.building_name,
  name: r.name,
  armModel: asModel(r.arm_model),
  armType: asType(r.arm_type),
  arms: armsJson.parse(JSON.parse(r.arms)),
  periscopeMm: r.periscope_mm,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const toPoseNetwork = (r: PoseNetworkRow, nodes: Array<{ id: number; name: string }>): PoseNetwork => ({
  id: r.id,
  organizationId: r.organization_id,
  buildingId: r.building_id,
  buildingName: r.building_name,
  name: r.name,
  armModel: asModel(r.arm_model),
  armType: asType(r.arm_type),
  nodes,
  edges: edgesJson.parse(JSON.parse(r.edges)),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The columns an edit writes (no id, no versions; JSON columns as text). */
type EditableColumns<T> = Omit<Selectable<T>, 'id' | 'created_at' | 'updated_at'>;
/** The stored columns of a pose definition. */
export type PoseDefColumns = EditableColumns<PoseDefTable>;
/** The stored columns of a pose network (its nodes live in `pose_network_nodes`). */
export type PoseNetworkColumns = EditableColumns<PoseNetworkTable>;

/** The key names are unique under: organization, arm model and arm type. */
export interface PoseNameKey {
  organizationId: number;
  armModel: number;
  armType: number;
  name: string;
}

/** A write refused by a foreign key (SQLite and PostgreSQL codes): a pose a network took meanwhile. */
export const isForeignKeyViolation = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
};

/**
 * SQL of poses and networks. Reads are within the caller's scope unless said otherwise; writes take
 * the transaction they belong to.
 */
export function poseRepo(db: Kysely<Database>) {
  const defs = (p: TenantScope, trx: Kysely<Database> = db) =>
    trx.selectFrom('pose_defs').where(poseScope(p, 'pose_defs'));
  const networks = (p: TenantScope, trx: Kysely<Database> = db) =>
    trx.selectFrom('pose_networks').where(poseScope(p, 'pose_networks'));
  /** Either table within the caller's scope, for the columns both have (typed as the first). */
  const scoped = (table: PoseTable, p: TenantScope, trx: Kysely<Database> = db) =>
    trx.selectFrom(table as 'pose_defs').where(poseScope(p, table as 'pose_defs'));

  /** Ids of one page (in the filter's order) and the total, from the scoped table alone. */
  async function page(table: PoseTable, p: TenantScope, f: ParsedFilter): Promise<{ ids: number[]; total: number }> {
    const [idRows, count] = await Promise.all([
      applyFilter(scoped(table, p).select('id'), f).execute(),
      applyWhere(scoped(table, p), f.where)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { ids: idRows.map((r) => r.id), total: Number(count.n) };
  }
  /** Whether the row is there within the caller's scope. */
  const exists = async (table: PoseTable, p: TenantScope, id: number, trx: Kysely<Database> = db) =>
    (await scoped(table, p, trx).select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  const defsJoined = (p: TenantScope, trx: Kysely<Database> = db) =>
    defs(p, trx).leftJoin('buildings', 'buildings.id', 'pose_defs.building_id').select(poseDefColumns);
  const networksJoined = (p: TenantScope, trx: Kysely<Database> = db) =>
    networks(p, trx).leftJoin('buildings', 'buildings.id', 'pose_networks.building_id').select(poseNetworkColumns);

  return {
    // ------------------------------------------------------------ pose definitions
    defById: (p: TenantScope, id: number): Promise<PoseDefRow | undefined> =>
      defsJoined(p).where('pose_defs.id', '=', id).executeTakeFirst(),
    /** Rows of these ids (in no particular order). */
    defsByIds: (p: TenantScope, ids: number[]): Promise<PoseDefRow[]> =>
      defsJoined(p).where('pose_defs.id', 'in', ids).execute(),
    defPage: (p: TenantScope, f: ParsedFilter) => page('pose_defs', p, f),
    defExists: (p: TenantScope, id: number, trx?: Kysely<Database>) => exists('pose_defs', p, id, trx),
    /** The placement and arm of poses by id (any scope: the caller compares organizations). */
    defPlacements(ids: number[]) {
      return db
        .selectFrom('pose_defs')
        .select(['id', 'organization_id', 'building_id', 'arm_model', 'arm_type'])
        .where('id', 'in', ids)
        .execute();
    },
    insertDef: (columns: PoseDefColumns, now: string, trx: Kysely<Database>): Promise<number> =>
      insertReturningId(trx, 'pose_defs', { ...columns, created_at: now, updated_at: now }),
    /** Writes only where the row is still at version `base`: the number of rows written (0 or 1). */
    updateDefVersioned: (
      id: number,
      base: string,
      columns: PoseDefColumns & { updated_at: string },
      trx: Kysely<Database>,
    ): Promise<bigint> => updateVersioned(trx, 'pose_defs', id, base, columns),
    /** Whether the row was there to delete. Fails with a foreign key violation when a network holds it. */
    deleteDef: (id: number, trx: Kysely<Database>): Promise<boolean> => deleteById(trx, 'pose_defs', id),

    // ------------------------------------------------------------ pose networks
    networkById: (p: TenantScope, id: number): Promise<PoseNetworkRow | undefined> =>
      networksJoined(p).where('pose_networks.id', '=', id).executeTakeFirst(),
    networksByIds: (p: TenantScope, ids: number[]): Promise<PoseNetworkRow[]> =>
      networksJoined(p).where('pose_networks.id', 'in', ids).execute(),
    networkPage: (p: TenantScope, f: ParsedFilter) => page('pose_networks', p, f),
    networkExists: (p: TenantScope, id: number, trx?: Kysely<Database>) => exists('pose_networks', p, id, trx),
    insertNetwork: (columns: PoseNetworkColumns, now: string, trx: Kysely<Database>): Promise<number> =>
      insertReturningId(trx, 'pose_networks', { ...columns, created_at: now, updated_at: now }),
    updateNetworkVersioned: (
      id: number,
      base: string,
      columns: PoseNetworkColumns & { updated_at: string },
      trx: Kysely<Database>,
    ): Promise<bigint> => updateVersioned(trx, 'pose_networks', id, base, columns),
    /** The network's poses become these, in this order. */
    async writeNodes(networkId: number, nodes: number[], trx: Kysely<Database>): Promise<void> {
      await trx.deleteFrom('pose_network_nodes').where('network_id', '=', networkId).execute();
      if (nodes.length === 0) return;
      await trx
        .insertInto('pose_network_nodes')
        .values(nodes.map((poseId, position) => ({ network_id: networkId, pose_def_id: poseId, position })))
        .execute();
    },
    /** The network and its nodes; whether the network was there to delete. */
    async deleteNetwork(id: number, trx: Kysely<Database>): Promise<boolean> {
      await trx.deleteFrom('pose_network_nodes').where('network_id', '=', id).execute();
      return deleteById(trx, 'pose_networks', id);
    },

    /** The poses of networks, in their order, with names. */
    async nodesOf(networkIds: number[], trx: Kysely<Database> = db) {
      const out = new Map<number, Array<{ id: number; name: string }>>();
      for (const id of networkIds) out.set(id, []);
      if (networkIds.length === 0) return out;
      const rows = await trx
        .selectFrom('pose_network_nodes')
        .innerJoin('pose_defs', 'pose_defs.id', 'pose_network_nodes.pose_def_id')
        .select(['pose_network_nodes.network_id', 'pose_defs.id', 'pose_defs.name'])
        .where('pose_network_nodes.network_id', 'in', networkIds)
        .orderBy('pose_network_nodes.network_id')
        .orderBy('pose_network_nodes.position')
        .execute();
      for (const r of rows) out.get(r.network_id)?.push({ id: r.id, name: r.name });
      return out;
    },
    /** Networks holding a pose, by name (any scope: a pose is in use wherever it is used). */
    usersOf(poseDefId: number, trx: Kysely<Database> = db) {
      return trx
        .selectFrom('pose_network_nodes')
        .innerJoin('pose_networks', 'pose_networks.id', 'pose_network_nodes.network_id')
        .select(['pose_networks.id', 'pose_networks.name', 'pose_networks.building_id'])
        .where('pose_network_nodes.pose_def_id', '=', poseDefId)
        .orderBy('pose_networks.name')
        .execute();
    },

    // ------------------------------------------------------------ shared
    /** Whether another row of the table already has the name under the same key. */
    async nameTaken(table: PoseTable, key: PoseNameKey, exceptId: number | null): Promise<boolean> {
      const row = await db
        .selectFrom(table)
        .select('id')
        .where('organization_id', '=', key.organizationId)
        .where('arm_model', '=', key.armModel)
        .where('arm_type', '=', key.armType)
        .where('name', '=', key.name)
        .$if(exceptId !== null, (q) => q.where('id', '<>', exceptId!))
        .executeTakeFirst();
      return row !== undefined;
    },
    /** A building's organization (any scope: the caller checks it may see the building). */
    buildingById: (id: number) => findById(db, 'buildings', id, ['id', 'organization_id']),
    organizationExists: (id: number): Promise<boolean> => rowExists(db, 'organizations', id),
  };
}
export type PoseRepo = ReturnType<typeof poseRepo>;
