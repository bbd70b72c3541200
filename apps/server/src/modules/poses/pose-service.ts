import { z } from 'zod';
import {
  OperatorType,
  isSystemAdmin,
  poseDefSchema,
  poseNetworkSchema,
  type ErrorDetail,
  type PoseDef,
  type PoseDefInput,
  type PoseNetwork,
  type PoseNetworkInput,
  type UpdatePoseDefBody,
  type UpdatePoseNetworkBody,
} from '@portal/contract';
import type { Kysely } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { applyFilter, applyWhere, parseFilter, type ParsedFilter } from '../../lib/filter.ts';
import { cachedLists, type ListAnswer } from '../../lib/list-answer.ts';
import { canSeeBuilding } from '../../lib/scope.ts';
import { nextVersion } from '../buildings/common.ts';
import { duplicate, isUniqueViolation, staleUpdate } from '../organizations/admin-rules.ts';
import {
  poseDefFilter,
  poseNetworkFilter,
  poseRepo,
  toPoseDef,
  toPoseNetwork,
  type PoseDefRow,
  type PoseNetworkRow,
} from './pose-repo.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'caches'>;

/** Writing poses and networks: organization administrators (own organization) and system administrators. */
export const canManagePoses = (p: Pick<Principal, 'type'>): boolean =>
  p.type === OperatorType.orgAdmin || isSystemAdmin(p.type);

function requirePoseManager(p: Pick<Principal, 'type'>): void {
  if (!canManagePoses(p)) throw forbidden('Only organization administrators can change poses and pose networks');
}

const invalid = (details: ErrorDetail[]) =>
  new AppError('VALIDATION_FAILED', `Invalid ${details.map((d) => d.path).join(', ')}`, details);

const fieldsNotSupported = () =>
  new AppError('BAD_FILTER', 'Invalid filter: fields is not supported here', [
    { path: 'fields', message: 'fields is not supported here; every entry is answered whole' },
  ]);

const isForeignKeyViolation = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
};

/** 409 IN_USE naming the networks that hold a pose: one detail per network (`networks.{id}`, its name). */
const inUse = (what: string, networks: Array<{ id: number; name: string }>) =>
  new AppError(
    'IN_USE',
    `${what} is used by pose networks: ${networks.map((n) => n.name).join(', ')}`,
    networks.map((n) => ({ path: `networks.${n.id}`, message: n.name, code: 'poseValidation.inUse' })),
  );

const poseListSchema = z.array(poseDefSchema);
const networkListSchema = z.array(poseNetworkSchema);

/**
 * Pose definitions and pose networks (docs/poses.md, docs/api-poses.md). Reading: anyone in the
 * organization (general operators: organization-wide rows and their building's); writing:
 * organization administrators (own organization) and system administrators. Another tenant's row
 * is "not found". The shape rules (joints, periscope, graph) come with the contract's schemas; the
 * rules that need the database (placement, nodes, names, use) are checked here.
 */
export function poseService({ db, clock, audit, caches }: Ctx) {
  const cachedList = cachedLists(caches.lists);
  const repo = poseRepo(db);

  const record = (
    p: Principal,
    action: string,
    target: { type: string; id: number; organizationId: number },
    ip: string,
    detail: Record<string, unknown>,
    trx: Kysely<Database>,
  ) =>
    audit.record(
      {
        operatorId: p.operatorId,
        organizationId: target.organizationId,
        action,
        targetType: target.type,
        targetId: target.id,
        ip,
        detail,
      },
      trx,
    );

  async function loadDef(p: Principal, id: number): Promise<PoseDefRow> {
    const row = await repo.defsJoined(p).where('pose_defs.id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Pose definition');
    return row;
  }

  async function loadNetwork(p: Principal, id: number): Promise<PoseNetworkRow> {
    const row = await repo.networksJoined(p).where('pose_networks.id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Pose network');
    return row;
  }

  const networkOf = async (row: PoseNetworkRow): Promise<PoseNetwork> =>
    toPoseNetwork(row, (await repo.nodesOf([row.id])).get(row.id) ?? []);

  /**
   * The organization a row belongs to: the building's (which the caller must see), else the one
   * named (system administrators only), else the caller's own.
   */
  async function placement(p: Principal, body: { buildingId: number | null; organizationId?: number | undefined }) {
    if (body.buildingId !== null) {
      const b = await db
        .selectFrom('buildings')
        .select(['id', 'organization_id'])
        .where('id', '=', body.buildingId)
        .executeTakeFirst();
      if (!b || !canSeeBuilding(p, { id: b.id, organizationId: b.organization_id }))
        throw invalid([{ path: 'buildingId', message: 'validation.notFound' }]);
      if (body.organizationId !== undefined && body.organizationId !== b.organization_id)
        throw invalid([{ path: 'buildingId', message: 'validation.notFound' }]);
      return { organizationId: b.organization_id };
    }
    const organizationId = body.organizationId ?? p.organizationId;
    if (!isSystemAdmin(p.type) && organizationId !== p.organizationId)
      throw invalid([{ path: 'organizationId', message: 'validation.notFound' }]);
    const org = await db.selectFrom('organizations').select('id').where('id', '=', organizationId).executeTakeFirst();
    if (!org) throw invalid([{ path: 'organizationId', message: 'validation.notFound' }]);
    return { organizationId };
  }

  /** Names are unique per organization, arm model and arm type. */
  async function nameTaken(
    table: 'pose_defs' | 'pose_networks',
    key: { organizationId: number; armModel: number; armType: number; name: string },
    exceptId: number | null,
  ) {
    const row = await db
      .selectFrom(table)
      .select('id')
      .where('organization_id', '=', key.organizationId)
      .where('arm_model', '=', key.armModel)
      .where('arm_type', '=', key.armType)
      .where('name', '=', key.name)
      .$if(exceptId !== null, (q) => q.where('id', '<>', exceptId!))
      .executeTakeFirst();
    return !!row;
  }

  const guardName = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicate('name', what);
      throw err;
    }
  };

  /**
   * The poses of a network: of the network's organization, arm model and arm type, and usable
   * where the network is (organization-wide poses anywhere; a building's poses only in a network
   * of that building). A pose of another tenant reads as "not found".
   */
  async function checkNodes(organizationId: number, body: PoseNetworkInput): Promise<void> {
    if (body.nodes.length === 0) return;
    const rows = await db
      .selectFrom('pose_defs')
      .select(['id', 'organization_id', 'building_id', 'arm_model', 'arm_type'])
      .where('id', 'in', body.nodes)
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const details: ErrorDetail[] = [];
    body.nodes.forEach((poseId, i) => {
      const r = byId.get(poseId);
      const path = `nodes.${i}`;
      if (!r || r.organization_id !== organizationId) details.push({ path, message: 'validation.notFound' });
      else if (r.arm_model !== body.armModel || r.arm_type !== body.armType)
        details.push({ path, message: 'poseValidation.nodeModelMismatch' });
      else if (r.building_id !== null && r.building_id !== body.buildingId)
        details.push({ path, message: 'poseValidation.nodeBuilding' });
    });
    if (details.length > 0) throw invalid(details);
  }

  /** Ids of one page (in the filter's order) and the total, from the scoped table alone. */
  async function defPage(p: Principal, f: ParsedFilter): Promise<{ ids: number[]; total: number }> {
    const [idRows, count] = await Promise.all([
      applyFilter(repo.defs(p).select('pose_defs.id'), f).execute(),
      applyWhere(repo.defs(p), f.where)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { ids: idRows.map((r) => r.id), total: Number(count.n) };
  }

  async function networkPage(p: Principal, f: ParsedFilter): Promise<{ ids: number[]; total: number }> {
    const [idRows, count] = await Promise.all([
      applyFilter(repo.networks(p).select('pose_networks.id'), f).execute(),
      applyWhere(repo.networks(p), f.where)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { ids: idRows.map((r) => r.id), total: Number(count.n) };
  }

  const defColumns = (body: PoseDefInput, organizationId: number) => ({
    organization_id: organizationId,
    building_id: body.buildingId,
    name: body.name,
    arm_model: body.armModel,
    arm_type: body.armType,
    arms: JSON.stringify(body.arms),
    periscope_mm: body.periscopeMm,
  });

  const networkColumns = (body: PoseNetworkInput, organizationId: number) => ({
    organization_id: organizationId,
    building_id: body.buildingId,
    name: body.name,
    arm_model: body.armModel,
    arm_type: body.armType,
    edges: JSON.stringify(body.edges.map((e) => ({ from: e.from, to: e.to, bidirectional: e.bidirectional }))),
  });

  async function writeNodes(trx: Kysely<Database>, networkId: number, nodes: number[]) {
    await trx.deleteFrom('pose_network_nodes').where('network_id', '=', networkId).execute();
    if (nodes.length === 0) return;
    await trx
      .insertInto('pose_network_nodes')
      .values(nodes.map((poseId, position) => ({ network_id: networkId, pose_def_id: poseId, position })))
      .execute();
  }

  return {
    // ------------------------------------------------------------ pose definitions
    async listDefs(p: Principal, rawFilter: string | undefined): Promise<ListAnswer> {
      const f = parseFilter(rawFilter, poseDefFilter);
      if (f.fields) throw fieldsNotSupported();
      return cachedList('pose-defs', p, rawFilter, poseListSchema, async () => {
        const { ids, total } = await defPage(p, f);
        if (ids.length === 0) return { items: [], total };
        const rows = await repo.defsJoined(p).where('pose_defs.id', 'in', ids).execute();
        const byId = new Map(rows.map((r) => [r.id, r]));
        return { items: ids.flatMap((id) => byId.get(id) ?? []).map(toPoseDef), total };
      });
    },

    async getDef(p: Principal, id: number): Promise<PoseDef> {
      return toPoseDef(await loadDef(p, id));
    },

    async createDef(p: Principal, body: PoseDefInput, ip: string): Promise<PoseDef> {
      requirePoseManager(p);
      const { organizationId } = await placement(p, body);
      const what = 'A pose definition with this name for this arm model and type';
      if (await nameTaken('pose_defs', { ...body, organizationId }, null)) throw duplicate('name', what);
      const now = clock().toISOString();
      const id = await guardName(what, () =>
        db.transaction().execute(async (trx) => {
          const row = await trx
            .insertInto('pose_defs')
            .values({ ...defColumns(body, organizationId), created_at: now, updated_at: now })
            .returning('id')
            .executeTakeFirstOrThrow();
          await record(
            p,
            'poseDef.create',
            { type: 'pose-def', id: row.id, organizationId },
            ip,
            { name: body.name, armModel: body.armModel, armType: body.armType },
            trx,
          );
          return row.id;
        }),
      );
      return toPoseDef(await loadDef(p, id));
    },

    /**
     * A pose in use keeps its arm model and type, and may only move to a building where every
     * network holding it may use it (409 IN_USE naming those networks).
     */
    async updateDef(p: Principal, id: number, body: UpdatePoseDefBody, ip: string): Promise<PoseDef> {
      requirePoseManager(p);
      const current = await loadDef(p, id);
      const { organizationId } = await placement(p, body);
      if (organizationId !== current.organization_id)
        throw invalid([
          {
            path: body.buildingId === null ? 'organizationId' : 'buildingId',
            message: 'poseValidation.organizationFixed',
          },
        ]);
      const modelChanged = body.armModel !== current.arm_model || body.armType !== current.arm_type;
      if (modelChanged || body.buildingId !== current.building_id) {
        const users = await db
          .selectFrom('pose_network_nodes')
          .innerJoin('pose_networks', 'pose_networks.id', 'pose_network_nodes.network_id')
          .select(['pose_networks.id', 'pose_networks.name', 'pose_networks.building_id'])
          .where('pose_network_nodes.pose_def_id', '=', id)
          .orderBy('pose_networks.name')
          .execute();
        const blocking = modelChanged
          ? users
          : users.filter((n) => body.buildingId !== null && n.building_id !== body.buildingId);
        if (blocking.length > 0) throw inUse('The pose definition', blocking);
      }
      const what = 'A pose definition with this name for this arm model and type';
      if (await nameTaken('pose_defs', { ...body, organizationId }, id)) throw duplicate('name', what);
      const before = toPoseDef(current);
      const changed = (['name', 'buildingId', 'armModel', 'armType', 'arms', 'periscopeMm'] as const).filter(
        (k) => JSON.stringify(before[k]) !== JSON.stringify(body[k]),
      );
      if (changed.length === 0) {
        if (body.updatedAt !== current.updated_at) throw staleUpdate('pose definition');
        return before;
      }
      const version = nextVersion(clock(), current.updated_at);
      const saved = await guardName(what, () =>
        db.transaction().execute(async (trx) => {
          const result = await trx
            .updateTable('pose_defs')
            .set({ ...defColumns(body, organizationId), updated_at: version })
            .where('id', '=', id)
            .where('updated_at', '=', body.updatedAt)
            .executeTakeFirst();
          if (Number(result.numUpdatedRows) !== 1) return false;
          await record(p, 'poseDef.update', { type: 'pose-def', id, organizationId }, ip, { fields: changed }, trx);
          return true;
        }),
      );
      if (!saved)
        throw (await repo.defs(p).select('id').where('id', '=', id).executeTakeFirst())
          ? staleUpdate('pose definition')
          : notFound('Pose definition');
      return toPoseDef(await loadDef(p, id));
    },

    async removeDef(p: Principal, id: number, ip: string): Promise<void> {
      requirePoseManager(p);
      const current = await loadDef(p, id);
      const users = await repo.usersOf(id);
      if (users.length > 0) throw inUse('The pose definition', users);
      try {
        await db.transaction().execute(async (trx) => {
          const gone = await trx.deleteFrom('pose_defs').where('id', '=', id).executeTakeFirst();
          if (Number(gone.numDeletedRows) !== 1) throw notFound('Pose definition');
          await record(
            p,
            'poseDef.delete',
            { type: 'pose-def', id, organizationId: current.organization_id },
            ip,
            { name: current.name },
            trx,
          );
        });
      } catch (err) {
        // A network took the pose in the meantime.
        if (isForeignKeyViolation(err)) throw inUse('The pose definition', await repo.usersOf(id));
        throw err;
      }
    },

    // ------------------------------------------------------------ pose networks
    async listNetworks(p: Principal, rawFilter: string | undefined): Promise<ListAnswer> {
      const f = parseFilter(rawFilter, poseNetworkFilter);
      if (f.fields) throw fieldsNotSupported();
      return cachedList('pose-networks', p, rawFilter, networkListSchema, async () => {
        const { ids, total } = await networkPage(p, f);
        if (ids.length === 0) return { items: [], total };
        const [rows, nodes] = await Promise.all([
          repo.networksJoined(p).where('pose_networks.id', 'in', ids).execute(),
          repo.nodesOf(ids),
        ]);
        const byId = new Map(rows.map((r) => [r.id, r]));
        return {
          items: ids.flatMap((id) => byId.get(id) ?? []).map((r) => toPoseNetwork(r, nodes.get(r.id) ?? [])),
          total,
        };
      });
    },

    async getNetwork(p: Principal, id: number): Promise<PoseNetwork> {
      return networkOf(await loadNetwork(p, id));
    },

    async createNetwork(p: Principal, body: PoseNetworkInput, ip: string): Promise<PoseNetwork> {
      requirePoseManager(p);
      const { organizationId } = await placement(p, body);
      await checkNodes(organizationId, body);
      const what = 'A pose network with this name for this arm model and type';
      if (await nameTaken('pose_networks', { ...body, organizationId }, null)) throw duplicate('name', what);
      const now = clock().toISOString();
      const id = await guardName(what, () =>
        db.transaction().execute(async (trx) => {
          const row = await trx
            .insertInto('pose_networks')
            .values({ ...networkColumns(body, organizationId), created_at: now, updated_at: now })
            .returning('id')
            .executeTakeFirstOrThrow();
          await writeNodes(trx, row.id, body.nodes);
          await record(
            p,
            'poseNetwork.create',
            { type: 'pose-network', id: row.id, organizationId },
            ip,
            { name: body.name, nodes: body.nodes.length, edges: body.edges.length },
            trx,
          );
          return row.id;
        }),
      );
      return networkOf(await loadNetwork(p, id));
    },

    async updateNetwork(p: Principal, id: number, body: UpdatePoseNetworkBody, ip: string): Promise<PoseNetwork> {
      requirePoseManager(p);
      const current = await loadNetwork(p, id);
      const { organizationId } = await placement(p, body);
      if (organizationId !== current.organization_id)
        throw invalid([
          {
            path: body.buildingId === null ? 'organizationId' : 'buildingId',
            message: 'poseValidation.organizationFixed',
          },
        ]);
      await checkNodes(organizationId, body);
      const what = 'A pose network with this name for this arm model and type';
      if (await nameTaken('pose_networks', { ...body, organizationId }, id)) throw duplicate('name', what);
      const version = nextVersion(clock(), current.updated_at);
      const saved = await guardName(what, () =>
        db.transaction().execute(async (trx) => {
          const result = await trx
            .updateTable('pose_networks')
            .set({ ...networkColumns(body, organizationId), updated_at: version })
            .where('id', '=', id)
            .where('updated_at', '=', body.updatedAt)
            .executeTakeFirst();
          if (Number(result.numUpdatedRows) !== 1) return false;
          await writeNodes(trx, id, body.nodes);
          await record(
            p,
            'poseNetwork.update',
            { type: 'pose-network', id, organizationId },
            ip,
            { name: body.name, nodes: body.nodes.length, edges: body.edges.length },
            trx,
          );
          return true;
        }),
      );
      if (!saved)
        throw (await repo.networks(p).select('id').where('id', '=', id).executeTakeFirst())
          ? staleUpdate('pose network')
          : notFound('Pose network');
      return networkOf(await loadNetwork(p, id));
    },

    async removeNetwork(p: Principal, id: number, ip: string): Promise<void> {
      requirePoseManager(p);
      const current = await loadNetwork(p, id);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('pose_network_nodes').where('network_id', '=', id).execute();
        const gone = await trx.deleteFrom('pose_networks').where('id', '=', id).executeTakeFirst();
        if (Number(gone.numDeletedRows) !== 1) throw notFound('Pose network');
        await record(
          p,
          'poseNetwork.delete',
          { type: 'pose-network', id, organizationId: current.organization_id },
          ip,
          { name: current.name },
          trx,
        );
      });
    },
  };
}
