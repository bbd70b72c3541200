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
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import {
  applyFilter,
  applyWhere,
  filterSpec,
  ID_FIELD,
  TENANT_FIELDS,
  TIMESTAMP_FIELDS,
  type ParsedFilter,
} from '../../lib/filter.ts';
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

export interface PoseDefRow {
  id: number;
  organization_id: number;
  building_id: number | null;
  building_name: string | null;
  name: string;
  arm_model: number;
  arm_type: number;
  arms: string;
  periscope_mm: number | null;
  created_at: string;
  updated_at: string;
}

export interface PoseNetworkRow {
  id: number;
  organization_id: number;
  building_id: number | null;
  building_name: string | null;
  name: string;
  arm_model: number;
  arm_type: number;
  edges: string;
  created_at: string;
  updated_at: string;
}

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

/** The stored columns of a pose definition (JSON columns as text). */
export interface PoseDefColumns {
  organization_id: number;
  building_id: number | null;
  name: string;
  arm_model: number;
  arm_type: number;
  arms: string;
  periscope_mm: number | null;
}

/** The stored columns of a pose network (its nodes live in `pose_network_nodes`). */
export interface PoseNetworkColumns {
  organization_id: number;
  building_id: number | null;
  name: string;
  arm_model: number;
  arm_type: number;
  edges: string;
}

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
    /** Ids of one page (in the filter's order) and the total, from the scoped table alone. */
    async defPage(p: TenantScope, f: ParsedFilter): Promise<{ ids: number[]; total: number }> {
      const [idRows, count] = await Promise.all([
        applyFilter(defs(p).select('pose_defs.id'), f).execute(),
        applyWhere(defs(p), f.where)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { ids: idRows.map((r) => r.id), total: Number(count.n) };
    },
    async defExists(p: TenantScope, id: number, trx: Kysely<Database> = db): Promise<boolean> {
      return (await defs(p, trx).select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
    },
    /** The placement and arm of poses by id (any scope: the caller compares organizations). */
    defPlacements(ids: number[]) {
      return db
        .selectFrom('pose_defs')
        .select(['id', 'organization_id', 'building_id', 'arm_model', 'arm_type'])
        .where('id', 'in', ids)
        .execute();
    },
    async insertDef(columns: PoseDefColumns, now: string, trx: Kysely<Database>): Promise<number> {
      const row = await trx
        .insertInto('pose_defs')
        .values({ ...columns, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    /** Writes only where the row is still at version `base`: the number of rows written (0 or 1). */
    async updateDefVersioned(
      id: number,
      base: string,
      columns: PoseDefColumns & { updated_at: string },
      trx: Kysely<Database>,
    ): Promise<bigint> {
      const r = await trx
        .updateTable('pose_defs')
        .set(columns)
        .where('id', '=', id)
        .where('updated_at', '=', base)
        .executeTakeFirst();
      return r.numUpdatedRows;
    },
    /** Whether the row was there to delete. Fails with a foreign key violation when a network holds it. */
    async deleteDef(id: number, trx: Kysely<Database>): Promise<boolean> {
      const r = await trx.deleteFrom('pose_defs').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },

    // ------------------------------------------------------------ pose networks
    networkById: (p: TenantScope, id: number): Promise<PoseNetworkRow | undefined> =>
      networksJoined(p).where('pose_networks.id', '=', id).executeTakeFirst(),
    networksByIds: (p: TenantScope, ids: number[]): Promise<PoseNetworkRow[]> =>
      networksJoined(p).where('pose_networks.id', 'in', ids).execute(),
    async networkPage(p: TenantScope, f: ParsedFilter): Promise<{ ids: number[]; total: number }> {
      const [idRows, count] = await Promise.all([
        applyFilter(networks(p).select('pose_networks.id'), f).execute(),
        applyWhere(networks(p), f.where)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { ids: idRows.map((r) => r.id), total: Number(count.n) };
    },
    async networkExists(p: TenantScope, id: number, trx: Kysely<Database> = db): Promise<boolean> {
      return (await networks(p, trx).select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
    },
    async insertNetwork(columns: PoseNetworkColumns, now: string, trx: Kysely<Database>): Promise<number> {
      const row = await trx
        .insertInto('pose_networks')
        .values({ ...columns, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async updateNetworkVersioned(
      id: number,
      base: string,
      columns: PoseNetworkColumns & { updated_at: string },
      trx: Kysely<Database>,
    ): Promise<bigint> {
      const r = await trx
        .updateTable('pose_networks')
        .set(columns)
        .where('id', '=', id)
        .where('updated_at', '=', base)
        .executeTakeFirst();
      return r.numUpdatedRows;
    },
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
      const r = await trx.deleteFrom('pose_networks').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
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
    buildingById(id: number) {
      return db.selectFrom('buildings').select(['id', 'organization_id']).where('id', '=', id).executeTakeFirst();
    },
    async organizationExists(id: number): Promise<boolean> {
      return (await db.selectFrom('organizations').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
    },
  };
}
export type PoseRepo = ReturnType<typeof poseRepo>;
