import { z } from 'zod';
import {
  isDataAdmin,
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
import { parseFilter } from '../../lib/filter.ts';
import { cachedLists, type ListAnswer } from '../../lib/list-answer.ts';
import { canSeeBuilding } from '../../lib/scope.ts';
import { expectVersioned, nextVersion, staleUpdate } from '../../lib/versioned.ts';
import { duplicate, isUniqueViolation } from '../organizations/admin-rules.ts';
import {
  isForeignKeyViolation,
  poseDefFilter,
  poseNetworkFilter,
  poseRepo,
  toPoseDef,
  toPoseNetwork,
  type PoseDefColumns,
  type PoseDefRow,
  type PoseNetworkColumns,
  type PoseNetworkRow,
} from './pose-repo.ts';
import type { AuditAction, AuditTargetType } from '@portal/contract';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'caches'>;

/** Writing poses and networks: organization administrators (own organization) and system administrators. */
function requirePoseManager(p: Pick<Principal, 'type'>): void {
  if (!isDataAdmin(p.type)) throw forbidden('Only organization administrators can change poses and pose networks');
}

const invalid = (details: ErrorDetail[]) =>
  new AppError('VALIDATION_FAILED', `Invalid ${details.map((d) => d.path).join(', ')}`, details);

const fieldsNotSupported = () =>
  new AppError('BAD_FILTER', 'Invalid filter: fields is not supported here', [
    { path: 'fields', message: 'fields is not supported here; every entry is answered whole' },
  ]);

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
    action: AuditAction,
    target: { type: AuditTargetType; id: number; organizationId: number },
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
    const row = await repo.defById(p, id);
    if (!row) throw notFound('Pose definition');
    return row;
  }

  async function loadNetwork(p: Principal, id: number): Promise<PoseNetworkRow> {
    const row = await repo.networkById(p, id);
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
      const b = await repo.buildingById(body.buildingId);
      if (!b || !canSeeBuilding(p, { id: b.id, organizationId: b.organization_id }))
        throw invalid([{ path: 'buildingId', message: 'validation.notFound' }]);
      if (body.organizationId !== undefined && body.organizationId !== b.organization_id)
        throw invalid([{ path: 'buildingId', message: 'validation.notFound' }]);
      return { organizationId: b.organization_id };
    }
    const organizationId = body.organizationId ?? p.organizationId;
    if (!isSystemAdmin(p.type) && organizationId !== p.organizationId)
      throw invalid([{ path: 'organizationId', message: 'validation.notFound' }]);
    if (!(await repo.organizationExists(organizationId)))
      throw invalid([{ path: 'organizationId', message: 'validation.notFound' }]);
    return { organizationId };
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
    const rows = await repo.defPlacements(body.nodes);
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

  const defColumns = (body: PoseDefInput, organizationId: number): PoseDefColumns => ({
    organization_id: organizationId,
    building_id: body.buildingId,
    name: body.name,
    arm_model: body.armModel,
    arm_type: body.armType,
    arms: JSON.stringify(body.arms),
    periscope_mm: body.periscopeMm,
  });

  const networkColumns = (body: PoseNetworkInput, organizationId: number): PoseNetworkColumns => ({
    organization_id: organizationId,
    building_id: body.buildingId,
    name: body.name,
    arm_model: body.armModel,
    arm_type: body.armType,
    edges: JSON.stringify(body.edges.map((e) => ({ from: e.from, to: e.to, bidirectional: e.bidirectional }))),
  });

  return {
    // ------------------------------------------------------------ pose definitions
    async listDefs(p: Principal, rawFilter: string | undefined): Promise<ListAnswer> {
      const f = parseFilter(rawFilter, poseDefFilter);
      if (f.fields) throw fieldsNotSupported();
      return cachedList('pose-defs', p, rawFilter, poseListSchema, async () => {
        const { ids, total } = await repo.defPage(p, f);
        if (ids.length === 0) return { items: [], total };
        const rows = await repo.defsByIds(p, ids);
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
      if (await repo.nameTaken('pose_defs', { ...body, organizationId }, null)) throw duplicate('name', what);
      const now = clock().toISOString();
      const id = await guardName(what, () =>
        db.transaction().execute(async (trx) => {
          const id = await repo.insertDef(defColumns(body, organizationId), now, trx);
          await record(
            p,
            'poseDef.create',
            { type: 'pose-def', id, organizationId },
            ip,
            { name: body.name, armModel: body.armModel, armType: body.armType },
            trx,
          );
          return id;
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
        const users = await repo.usersOf(id);
        const blocking = modelChanged
          ? users
          : users.filter((n) => body.buildingId !== null && n.building_id !== body.buildingId);
        if (blocking.length > 0) throw inUse('The pose definition', blocking);
      }
      const what = 'A pose definition with this name for this arm model and type';
      if (await repo.nameTaken('pose_defs', { ...body, organizationId }, id)) throw duplicate('name', what);
      const before = toPoseDef(current);
      const changed = (['name', 'buildingId', 'armModel', 'armType', 'arms', 'periscopeMm'] as const).filter(
        (k) => JSON.stringify(before[k]) !== JSON.stringify(body[k]),
      );
      if (changed.length === 0) {
        if (body.updatedAt !== current.updated_at) throw staleUpdate('pose definition');
        return before;
      }
      const version = nextVersion(clock(), current.updated_at);
      await guardName(what, () =>
        db.transaction().execute(async (trx) => {
          const written = await repo.updateDefVersioned(
            id,
            body.updatedAt,
            { ...defColumns(body, organizationId), updated_at: version },
            trx,
          );
          await expectVersioned(
            written,
            'pose definition',
            () => repo.defExists(p, id, trx),
            () => notFound('Pose definition'),
          );
          await record(p, 'poseDef.update', { type: 'pose-def', id, organizationId }, ip, { fields: changed }, trx);
        }),
      );
      return toPoseDef(await loadDef(p, id));
    },

    async removeDef(p: Principal, id: number, ip: string): Promise<void> {
      requirePoseManager(p);
      const current = await loadDef(p, id);
      const users = await repo.usersOf(id);
      if (users.length > 0) throw inUse('The pose definition', users);
      try {
        await db.transaction().execute(async (trx) => {
          if (!(await repo.deleteDef(id, trx))) throw notFound('Pose definition');
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
        const { ids, total } = await repo.networkPage(p, f);
        if (ids.length === 0) return { items: [], total };
        const [rows, nodes] = await Promise.all([repo.networksByIds(p, ids), repo.nodesOf(ids)]);
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
      if (await repo.nameTaken('pose_networks', { ...body, organizationId }, null)) throw duplicate('name', what);
      const now = clock().toISOString();
      const id = await guardName(what, () =>
        db.transaction().execute(async (trx) => {
          const id = await repo.insertNetwork(networkColumns(body, organizationId), now, trx);
          await repo.writeNodes(id, body.nodes, trx);
          await record(
            p,
            'poseNetwork.create',
            { type: 'pose-network', id, organizationId },
            ip,
            { name: body.name, nodes: body.nodes.length, edges: body.edges.length },
            trx,
          );
          return id;
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
      if (await repo.nameTaken('pose_networks', { ...body, organizationId }, id)) throw duplicate('name', what);
      const version = nextVersion(clock(), current.updated_at);
      await guardName(what, () =>
        db.transaction().execute(async (trx) => {
          const written = await repo.updateNetworkVersioned(
            id,
            body.updatedAt,
            { ...networkColumns(body, organizationId), updated_at: version },
            trx,
          );
          await expectVersioned(
            written,
            'pose network',
            () => repo.networkExists(p, id, trx),
            () => notFound('Pose network'),
          );
          await repo.writeNodes(id, body.nodes, trx);
          await record(
            p,
            'poseNetwork.update',
            { type: 'pose-network', id, organizationId },
            ip,
            { name: body.name, nodes: body.nodes.length, edges: body.edges.length },
            trx,
          );
        }),
      );
      return networkOf(await loadNetwork(p, id));
    },

    async removeNetwork(p: Principal, id: number, ip: string): Promise<void> {
      requirePoseManager(p);
      const current = await loadNetwork(p, id);
      await db.transaction().execute(async (trx) => {
        if (!(await repo.deleteNetwork(id, trx))) throw notFound('Pose network');
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
