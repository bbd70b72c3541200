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
import type { ResourceFilterSpec } from '../../lib/filter.ts';
import type { TenantScope } from '../../lib/scope.ts';

/** Allow-list of `GET /pose-defs?filter=` (ARCHITECTURE.md "API"). */
export const poseDefFilter: ResourceFilterSpec<'pose_defs'> = {
  table: 'pose_defs',
  fields: {
    id: { column: 'id', type: 'integer' },
    name: { column: 'name', type: 'string' },
    armModel: { column: 'arm_model', type: 'integer' },
    armType: { column: 'arm_type', type: 'integer' },
    organizationId: { column: 'organization_id', type: 'integer' },
    buildingId: { column: 'building_id', type: 'integer' },
    createdAt: { column: 'created_at', type: 'date' },
    updatedAt: { column: 'updated_at', type: 'date' },
  },
  defaultOrder: 'name ASC',
};

/** Allow-list of `GET /pose-networks?filter=`. */
export const poseNetworkFilter: ResourceFilterSpec<'pose_networks'> = {
  table: 'pose_networks',
  fields: {
    id: { column: 'id', type: 'integer' },
    name: { column: 'name', type: 'string' },
    armModel: { column: 'arm_model', type: 'integer' },
    armType: { column: 'arm_type', type: 'integer' },
    organizationId: { column: 'organization_id', type: 'integer' },
    buildingId: { column: 'building_id', type: 'integer' },
    createdAt: { column: 'created_at', type: 'date' },
    updatedAt: { column: 'updated_at', type: 'date' },
  },
  defaultOrder: 'name ASC',
};

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

/** SQL of poses and networks, always within the caller's scope. */
export function poseRepo(db: Kysely<Database>) {
  const defs = (p: TenantScope, trx: Kysely<Database> = db) =>
    trx.selectFrom('pose_defs').where(poseScope(p, 'pose_defs'));
  const networks = (p: TenantScope, trx: Kysely<Database> = db) =>
    trx.selectFrom('pose_networks').where(poseScope(p, 'pose_networks'));

  return {
    defs,
    networks,
    defsJoined: (p: TenantScope, trx: Kysely<Database> = db) =>
      defs(p, trx).leftJoin('buildings', 'buildings.id', 'pose_defs.building_id').select(poseDefColumns),
    networksJoined: (p: TenantScope, trx: Kysely<Database> = db) =>
      networks(p, trx).leftJoin('buildings', 'buildings.id', 'pose_networks.building_id').select(poseNetworkColumns),
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
    /** Networks holding a pose (any scope: a pose is in use wherever it is used). */
    usersOf(poseDefId: number, trx: Kysely<Database> = db) {
      return trx
        .selectFrom('pose_network_nodes')
        .innerJoin('pose_networks', 'pose_networks.id', 'pose_network_nodes.network_id')
        .select(['pose_networks.id', 'pose_networks.name'])
        .where('pose_network_nodes.pose_def_id', '=', poseDefId)
        .orderBy('pose_networks.name')
        .execute();
    },
  };
}
export type PoseRepo = ReturnType<typeof poseRepo>;
