import { z } from 'zod';
import {
  commandIdsOf,
  flowSchema,
  isAdmin,
  validateFlowDefinition,
  walkSteps,
  type AuditAction,
  type ErrorDetail,
  type Flow,
  type FlowCommandRef,
  type FlowDefinition,
  type FlowInput,
  type ReorderFlowsBody,
  type UpdateFlowBody,
} from '@portal/contract';
import type { Kysely } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { parseFilter } from '../../lib/filter.ts';
import { cachedLists, refuseFields, rowsInOrder, type ListAnswer } from '../../lib/list-answer.ts';
import { canSeeBuilding } from '../../lib/scope.ts';
import { expectVersioned, nextVersion } from '../../lib/versioned.ts';
import { workPlanRepo } from '../work-plans/work-plan-repo.ts';
import { commandRepo } from './command-repo.ts';
import { invalid } from './command-service.ts';
import { flowFilter, flowRepo, toFlow, type FlowColumns, type FlowRow } from './flow-repo.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'caches'>;

const listSchema = z.array(flowSchema);

const restricted = () =>
  new AppError(
    'FLOW_EDIT_RESTRICTED',
    'Your flow editing is restricted: ask your organization administrator to register, update or delete flows',
  );

/**
 * Flows (docs/api-flows.md "Flows"). Reading within tenancy (general operators: their building).
 * Changing: administrators (types 1, 2, 9) within their scope; general operators the flows of their
 * own building unless their flow editing is restricted (403 FLOW_EDIT_RESTRICTED). A flow of
 * another scope is 404; a building, floor or flow group that is not the caller's to use is a 400 on
 * that field. The definition is checked by `validateFlowDefinition` against the building's floors,
 * maps, speech texts, pose definitions and the commands the organization may use: each issue is a
 * 400 detail at `definition.steps.…`.
 */
export function flowService({ db, clock, audit, caches }: Ctx) {
  const cachedList = cachedLists(caches.lists);
  const repo = flowRepo(db);
  const commands = commandRepo(db);

  const record = (
    p: Principal,
    action: AuditAction,
    target: { type: 'flow' | 'building'; id: number; organizationId: number },
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

  /** May the caller change flows at all (the building itself is checked by `placement`)? */
  async function requireEditor(p: Principal): Promise<void> {
    if (isAdmin(p.type)) return;
    if (await repo.flowEditRestricted(p.operatorId)) throw restricted();
  }

  async function load(p: Principal, id: number): Promise<FlowRow> {
    const row = await repo.byId(p, id);
    if (!row) throw notFound('Flow');
    return row;
  }

  /** The building (the caller's to use), floor and flow group of a flow: 400 on the field that is not. */
  async function placement(
    p: Principal,
    body: { buildingId: number; floorId: number; flowGroupId: number | null },
  ): Promise<{ organizationId: number; floorIds: Set<number> }> {
    const b = await repo.building(body.buildingId);
    if (!b || !canSeeBuilding(p, { id: b.id, organizationId: b.organization_id }))
      throw invalid([{ path: 'buildingId', message: 'validation.notFound' }]);
    const details: ErrorDetail[] = [];
    const floorIds = await repo.floorIdsOf(b.id);
    if (!floorIds.has(body.floorId)) details.push({ path: 'floorId', message: 'flowValidation.floorBuilding' });
    if (body.flowGroupId !== null) {
      const g = await repo.flowGroupOf(body.flowGroupId);
      if (!g || g.building_id !== b.id)
        details.push({ path: 'flowGroupId', message: 'flowValidation.flowGroupBuilding' });
    }
    if (details.length > 0) throw invalid(details);
    return { organizationId: b.organization_id, floorIds };
  }

  /** The definition's rules against what the building and organization have; answers the commands it uses. */
  async function checkDefinition(
    def: FlowDefinition,
    where: { organizationId: number; buildingId: number; floorId: number; floorIds: Set<number> },
  ): Promise<number[]> {
    const usedCommands = commandIdsOf(def);
    const floorsNamed = new Set([where.floorId]);
    let usesSpeech = false;
    let usesPoses = false;
    let usesCheckItems = false;
    let launchesWorkPlans = false;
    for (const { step: s } of walkSteps(def.steps)) {
      if (s.kind === 'moveToFloor' && where.floorIds.has(s.floorId)) floorsNamed.add(s.floorId);
      else if (s.kind === 'speak') usesSpeech = true;
      else if (s.kind === 'pose') usesPoses = true;
      else if (s.kind === 'meterCheck') usesCheckItems = true;
      else if (s.kind === 'launchWorkPlan') launchesWorkPlans = true;
    }
    const [maps, speechTextIds, poseDefIds, usable, checkItems] = await Promise.all([
      repo.mapIdsOf([...floorsNamed]),
      usesSpeech ? repo.speechTextIdsOf(where.buildingId) : Promise.resolve(new Set<number>()),
      usesPoses ? repo.poseDefIdsOf(where.organizationId, where.buildingId) : Promise.resolve(new Set<number>()),
      commands.usableBy(where.organizationId, usedCommands),
      usesCheckItems ? repo.checkItemsOf(where.buildingId) : Promise.resolve(new Map<number, { floorId: number }>()),
    ]);
    const commandRefs = new Map<number, FlowCommandRef>(
      usable.map((c) => [
        c.id,
        {
          modelsAllowed: JSON.parse(c.models_allowed) as string[],
          parameters: JSON.parse(c.parameters) as FlowCommandRef['parameters'],
          steps: (JSON.parse(c.definition) as FlowDefinition).steps,
        },
      ]),
    );
    const planIds = launchesWorkPlans ? await workPlanRepo(db).idsOfBuilding(where.buildingId) : new Set<number>();
    const issues = validateFlowDefinition(def, {
      workPlans: true,
      commands: commandRefs,
      building: {
        startFloorId: where.floorId,
        floorIds: where.floorIds,
        waypoints: maps.waypoints,
        routes: maps.routes,
        speechTextIds,
        poseDefIds,
        checkItems,
      },
    });
    // A work plan a step launches is one of the building's (modules/work-plans).
    for (const { step: s, path } of walkSteps(def.steps))
      if (s.kind === 'launchWorkPlan' && !planIds.has(s.workPlanId))
        issues.push({ path: [...path, 'workPlanId'].join('.'), stepId: s.id, message: 'validation.notFound' });
    if (issues.length > 0) throw invalid(issues.map((i) => ({ path: `definition.${i.path}`, message: i.message })));
    return usedCommands;
  }

  const columns = (body: UpdateFlowBody | FlowInput, organizationId: number): FlowColumns => ({
    organization_id: organizationId,
    building_id: body.buildingId,
    floor_id: body.floorId,
    flow_group_id: body.flowGroupId,
    name: body.name,
    description: body.description,
    definition: JSON.stringify(body.definition),
  });

  return {
    async list(p: Principal, rawFilter: string | undefined): Promise<ListAnswer> {
      const f = parseFilter(rawFilter, flowFilter);
      refuseFields(f);
      return cachedList('flows', p, rawFilter, listSchema, async () =>
        rowsInOrder(await repo.page(p, f), (ids) => repo.byIds(p, ids), toFlow),
      );
    },

    async get(p: Principal, id: number): Promise<Flow> {
      return toFlow(await load(p, id));
    },

    async create(p: Principal, body: FlowInput, ip: string): Promise<Flow> {
      await requireEditor(p);
      const { organizationId, floorIds } = await placement(p, body);
      const used = await checkDefinition(body.definition, { organizationId, ...body, floorIds });
      const now = clock().toISOString();
      const id = await db.transaction().execute(async (trx) => {
        const order = await repo.nextOrder(body.buildingId, body.floorId, trx);
        const id = await repo.insert(
          { ...columns(body, organizationId), display_order: order, enabled: body.enabled ? 1 : 0 },
          now,
          trx,
        );
        await repo.writeCommands(id, used, trx);
        await record(p, 'flow.create', { type: 'flow', id, organizationId }, ip, { name: body.name }, trx);
        return id;
      });
      return toFlow(await load(p, id));
    },

    /** Moving a flow to another floor puts it last there. */
    async update(p: Principal, id: number, body: UpdateFlowBody, ip: string): Promise<Flow> {
      const current = await load(p, id);
      await requireEditor(p);
      const { organizationId, floorIds } = await placement(p, body);
      if (organizationId !== current.organization_id)
        throw invalid([{ path: 'buildingId', message: 'flowValidation.organizationFixed' }]);
      const used = await checkDefinition(body.definition, { organizationId, ...body, floorIds });
      const moved = body.buildingId !== current.building_id || body.floorId !== current.floor_id;
      const version = nextVersion(clock(), current.updated_at);
      await db.transaction().execute(async (trx) => {
        const written = await repo.updateVersioned(
          id,
          body.updatedAt,
          { ...columns(body, organizationId), updated_at: version },
          trx,
        );
        await expectVersioned(
          written,
          'flow',
          () => repo.exists(id, trx),
          () => notFound('Flow'),
        );
        if (moved) await repo.setOrder(id, await repo.nextOrder(body.buildingId, body.floorId, trx), trx);
        await repo.writeCommands(id, used, trx);
        await record(p, 'flow.update', { type: 'flow', id, organizationId }, ip, { name: body.name }, trx);
      });
      return toFlow(await load(p, id));
    },

    /** Enabling or disabling is a list action: no version is needed and the version does not change. */
    async setEnabled(p: Principal, id: number, enabled: boolean, ip: string): Promise<Flow> {
      const current = await load(p, id);
      await requireEditor(p);
      await db.transaction().execute(async (trx) => {
        await repo.setEnabled(id, enabled, trx);
        await record(
          p,
          enabled ? 'flow.enable' : 'flow.disable',
          { type: 'flow', id, organizationId: current.organization_id },
          ip,
          { name: current.name },
          trx,
        );
      });
      return toFlow(await load(p, id));
    },

    async remove(p: Principal, id: number, ip: string): Promise<void> {
      const current = await load(p, id);
      await requireEditor(p);
      await db.transaction().execute(async (trx) => {
        if (!(await repo.remove(id, trx))) throw notFound('Flow');
        await record(
          p,
          'flow.delete',
          { type: 'flow', id, organizationId: current.organization_id },
          ip,
          { name: current.name },
          trx,
        );
      });
    },

    /**
     * The flows of one building and floor take the order of `ids` (1, 2, ...), in one transaction;
     * `ids` must list each of them once (else 400, nothing changed).
     */
    async reorder(p: Principal, body: ReorderFlowsBody, ip: string): Promise<Flow[]> {
      await requireEditor(p);
      const b = await repo.building(body.buildingId);
      if (!b || !canSeeBuilding(p, { id: b.id, organizationId: b.organization_id }))
        throw invalid([{ path: 'buildingId', message: 'validation.notFound' }]);
      await db.transaction().execute(async (trx) => {
        const rows = await repo.onFloor(body.buildingId, body.floorId, trx);
        const have = new Set(rows.map((r) => r.id));
        if (rows.length !== body.ids.length || body.ids.some((i) => !have.has(i)))
          throw invalid([{ path: 'ids', message: 'flowValidation.reorderMismatch' }]);
        for (const [i, flowId] of body.ids.entries()) await repo.setOrder(flowId, i + 1, trx);
        await record(
          p,
          'flow.reorder',
          { type: 'building', id: b.id, organizationId: b.organization_id },
          ip,
          { floorId: body.floorId, ids: body.ids },
          trx,
        );
      });
      return (await repo.onFloor(body.buildingId, body.floorId)).map(toFlow);
    },
  };
}
