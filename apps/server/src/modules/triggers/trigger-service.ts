import { z } from 'zod';
import {
  isDataAdmin,
  triggerFiringSchema,
  triggerSchema,
  type ErrorDetail,
  type Trigger,
  type TriggerInput,
  type UpdateTriggerBody,
} from '@portal/contract';
import type { Kysely } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { parseFilter } from '../../lib/filter.ts';
import { cachedLists, refuseFields, type ListAnswer } from '../../lib/list-answer.ts';
import { canSeeBuilding } from '../../lib/scope.ts';
import { expectVersioned, nextVersion, staleUpdate } from '../../lib/versioned.ts';
import { buildingInScope } from '../buildings/common.ts';
import {
  toTrigger,
  toTriggerFiring,
  triggerFilter,
  triggerFiringFilter,
  triggerRepo,
  type TriggerColumns,
} from './trigger-repo.ts';
import type { TriggerRow } from './trigger-tables.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'caches'>;

const invalid = (details: ErrorDetail[]) =>
  new AppError('VALIDATION_FAILED', `Invalid ${details.map((d) => d.path).join(', ')}`, details);

const listSchema = z.array(triggerSchema);
const firingListSchema = z.array(triggerFiringSchema);

type Body = TriggerInput | UpdateTriggerBody;

/**
 * Triggers of a building (docs/api-triggers.md). Reading: every operator who sees the building.
 * Changing: organization administrators (their organization's buildings) and system administrators;
 * others 403. A trigger of a building the caller does not see is 404. Every id a trigger names must
 * be of its building (threshold rules: of its organization; notification targets: of the building or
 * organization-wide; webhooks: enabled system webhooks), else 400 with the field.
 */
export function triggerService({ db, clock, audit, caches }: Ctx) {
  const cachedList = cachedLists(caches.lists);
  const repo = triggerRepo(db);

  const record = (
    p: Principal,
    action: 'trigger.create' | 'trigger.update' | 'trigger.delete',
    row: { id: number; organizationId: number },
    ip: string,
    detail: Record<string, unknown>,
    trx: Kysely<Database>,
  ) =>
    audit.record(
      {
        operatorId: p.operatorId,
        organizationId: row.organizationId,
        action,
        targetType: 'trigger',
        targetId: row.id,
        ip,
        detail,
      },
      trx,
    );

  const requireManager = (p: Principal) => {
    if (!isDataAdmin(p.type))
      throw forbidden('Only organization administrators can register, update or delete triggers');
  };

  async function load(p: Principal, id: number): Promise<TriggerRow> {
    const row = await repo.byId(p, id);
    if (!row) throw notFound('Trigger');
    return row;
  }

  /** Checks every id the trigger names against its building and organization; 400 naming the fields. */
  async function checkReferences(body: Body, organizationId: number, buildingId: number): Promise<void> {
    const details: ErrorDetail[] = [];
    const bad = (path: string) => details.push({ path, message: 'validation.notInBuilding' });
    const c = body.conditions;
    if (body.eventType === 1) {
      if (c.robotId && !(await repo.robotOfBuilding(c.robotId, buildingId))) bad('conditions.robotId');
      if (c.robotGroupId && !(await repo.robotGroupOfBuilding(c.robotGroupId, buildingId)))
        bad('conditions.robotGroupId');
    }
    if (body.eventType === 2) {
      if (c.ruleId && !(await repo.ruleOfOrganization(c.ruleId, organizationId))) bad('conditions.ruleId');
      if (c.checkItemId && !(await repo.checkItemOfBuilding(c.checkItemId, buildingId))) bad('conditions.checkItemId');
    }
    if (body.eventType === 0 && c.scheduleId && !(await repo.scheduleOfBuilding(c.scheduleId, buildingId)))
      bad('conditions.scheduleId');
    const t = body.target;
    if (body.targetType === 0) {
      if (t.flowId && !(await repo.flowOfBuilding(t.flowId, buildingId))) bad('target.flowId');
      if (t.robotChoice === 'robot' && t.robotId && !(await repo.robotOfBuilding(t.robotId, buildingId)))
        bad('target.robotId');
    }
    if (body.targetType === 1) {
      const found = new Set(await repo.targetsOf(t.targetIds, organizationId, buildingId));
      if (t.targetIds.some((id) => !found.has(id))) bad('target.targetIds');
    }
    if (body.targetType === 3 && t.webhookId) {
      const status = await repo.webhookStatus(t.webhookId);
      if (status === null) details.push({ path: 'target.webhookId', message: 'validation.notFound' });
      else if (status !== 1) details.push({ path: 'target.webhookId', message: 'triggerValidation.webhookNotEnabled' });
    }
    if (details.length > 0) throw invalid(details);
  }

  /**
   * The stored JSON keeps only the fields of the trigger's event and target types (the others null
   * or empty), so a trigger changed from one type to another carries nothing of the old one.
   */
  const columns = (body: Body): Omit<TriggerColumns, 'organization_id' | 'building_id'> => {
    const c = body.conditions;
    const t = body.target;
    return {
      name: body.name,
      status: body.status,
      event_type: body.eventType,
      conditions: JSON.stringify({
        version: 1,
        robotStatuses: body.eventType === 1 ? c.robotStatuses : [],
        robotId: body.eventType === 1 ? (c.robotId ?? null) : null,
        robotGroupId: body.eventType === 1 ? (c.robotGroupId ?? null) : null,
        ruleId: body.eventType === 2 ? (c.ruleId ?? null) : null,
        checkItemId: body.eventType === 2 ? (c.checkItemId ?? null) : null,
        minLevel: body.eventType === 2 ? (c.minLevel ?? null) : null,
        scheduleId: body.eventType === 0 ? (c.scheduleId ?? null) : null,
      }),
      target_type: body.targetType,
      target: JSON.stringify({
        version: 1,
        flowId: body.targetType === 0 ? (t.flowId ?? null) : null,
        robotChoice: body.targetType === 0 ? (t.robotChoice ?? null) : null,
        robotId: body.targetType === 0 && t.robotChoice === 'robot' ? (t.robotId ?? null) : null,
        targetIds: body.targetType === 1 ? t.targetIds : [],
        level: body.targetType === 1 ? (t.level ?? null) : null,
        message: body.targetType === 1 ? t.message : '',
        webhookId: body.targetType === 3 ? (t.webhookId ?? null) : null,
      }),
    };
  };

  return {
    async list(p: Principal, rawFilter: string | undefined): Promise<ListAnswer> {
      const f = parseFilter(rawFilter, triggerFilter);
      refuseFields(f);
      return cachedList('triggers', p, rawFilter, listSchema, async () => {
        const { rows, total } = await repo.page(p, f);
        return { items: rows.map(toTrigger), total };
      });
    },

    async get(p: Principal, id: number): Promise<Trigger> {
      return toTrigger(await load(p, id));
    },

    async create(p: Principal, body: TriggerInput, ip: string): Promise<Trigger> {
      requireManager(p);
      const b = await buildingInScope(db, p, body.buildingId);
      await checkReferences(body, b.organizationId, b.id);
      const now = clock().toISOString();
      const id = await db.transaction().execute(async (trx) => {
        const id = await repo.insert(
          { ...columns(body), organization_id: b.organizationId, building_id: b.id },
          now,
          trx,
        );
        await record(
          p,
          'trigger.create',
          { id, organizationId: b.organizationId },
          ip,
          { name: body.name, eventType: body.eventType, targetType: body.targetType },
          trx,
        );
        return id;
      });
      return toTrigger(await load(p, id));
    },

    /** The building of a trigger is fixed. */
    async update(p: Principal, id: number, body: UpdateTriggerBody, ip: string): Promise<Trigger> {
      requireManager(p);
      const current = await load(p, id);
      await checkReferences(body, current.organization_id, current.building_id);
      const next = columns(body);
      const changed = (Object.keys(next) as Array<keyof typeof next>).filter((k) => next[k] !== current[k]);
      if (changed.length === 0) {
        if (body.updatedAt !== current.updated_at) throw staleUpdate('trigger');
        return toTrigger(current);
      }
      const version = nextVersion(clock(), current.updated_at);
      await db.transaction().execute(async (trx) => {
        const written = await repo.updateVersioned(id, body.updatedAt, { ...next, updated_at: version }, trx);
        await expectVersioned(
          written,
          'trigger',
          () => repo.exists(id, trx),
          () => notFound('Trigger'),
        );
        await record(
          p,
          'trigger.update',
          { id, organizationId: current.organization_id },
          ip,
          { fields: changed },
          trx,
        );
      });
      return toTrigger(await load(p, id));
    },

    /** Its firings stay in the log, naming it. */
    async remove(p: Principal, id: number, ip: string): Promise<void> {
      requireManager(p);
      const current = await load(p, id);
      await db.transaction().execute(async (trx) => {
        await record(
          p,
          'trigger.delete',
          { id, organizationId: current.organization_id },
          ip,
          { name: current.name },
          trx,
        );
        if (!(await repo.remove(id, trx))) throw notFound('Trigger');
      });
    },

    async firings(p: Principal, rawFilter: string | undefined): Promise<ListAnswer> {
      const f = parseFilter(rawFilter, triggerFiringFilter);
      refuseFields(f);
      return cachedList('trigger-firings', p, rawFilter, firingListSchema, async () => {
        const { rows, total } = await repo.firingPage(p, f);
        return { items: rows.map(toTriggerFiring), total };
      });
    },
  };
}
export type TriggerService = ReturnType<typeof triggerService>;

/** Whether the caller sees a trigger's building (for callers holding a row). */
export const triggerVisible = (p: Principal, row: TriggerRow) =>
  canSeeBuilding(p, { id: row.building_id, organizationId: row.organization_id });
