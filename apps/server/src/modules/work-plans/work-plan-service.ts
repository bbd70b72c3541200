import {
  isDataAdmin,
  isSystemAdmin,
  validateWorkPlanDefinition,
  type AuditAction,
  type AuditTargetType,
  type ErrorDetail,
  type UpdateWorkPlanBody,
  type UpdateWorkPlanTemplateBody,
  type WorkPlan,
  type WorkPlanDefinition,
  type WorkPlanInput,
  type WorkPlanTemplate,
  type WorkPlanTemplateInput,
} from '@portal/contract';
import type { Kysely } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { parseFilter } from '../../lib/filter.ts';
import { refuseFields, rowsInOrder } from '../../lib/list-answer.ts';
import { canSeeBuilding } from '../../lib/scope.ts';
import { expectVersioned, nextVersion } from '../../lib/versioned.ts';
import { flowRepo } from '../flows/flow-repo.ts';
import {
  toWorkPlan,
  toWorkPlanTemplate,
  workPlanFilter,
  workPlanRepo,
  workPlanTemplateFilter,
  type WorkPlanColumns,
  type WorkPlanRow,
  type WorkPlanTemplateRow,
} from './work-plan-repo.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit'>;

const invalid = (details: ErrorDetail[]) =>
  new AppError('VALIDATION_FAILED', `Invalid ${details.map((d) => d.path).join(', ')}`, details);

/** Changing work plans and templates: organization and system administrators (spec §6). */
function requireManager(p: Pick<Principal, 'type'>): void {
  if (!isDataAdmin(p.type))
    throw forbidden('Ask your organization administrator to register, update or delete work plans');
}

/**
 * Work plans and their templates (docs/api-work-plans.md). Reading within tenancy (general
 * operators: their building's work plans; templates: the shared ones and the organization's).
 * Changing: organization and system administrators (others 403), within their scope (another
 * tenant's row is 404). The definition's shape comes with the contract's schema; here the rules
 * that need the database: the building is the caller's to use, the floor is of that building,
 * every move names a waypoint of the floor's current map, speech texts and pose definitions are
 * the building's, the template is one the caller sees. Shipped templates are read-only. A stale
 * edit is 409 STALE_UPDATE.
 */
export function workPlanService({ db, clock, audit }: Ctx) {
  const repo = workPlanRepo(db);
  const flows = flowRepo(db);

  const record = (
    p: Principal,
    action: AuditAction,
    target: { type: AuditTargetType; id: number; organizationId: number | null },
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

  async function load(p: Principal, id: number): Promise<WorkPlanRow> {
    const row = await repo.byId(p, id);
    if (!row) throw notFound('Work plan');
    return row;
  }

  async function loadTemplate(p: Principal, id: number): Promise<WorkPlanTemplateRow> {
    const row = await repo.templateById(p, id);
    if (!row) throw notFound('Work plan template');
    return row;
  }

  /** Building (the caller's), floor (of it), template (one the caller sees) and the definition's references. */
  async function check(p: Principal, body: WorkPlanInput & { definition: WorkPlanDefinition }): Promise<number> {
    const b = await repo.building(body.buildingId);
    if (!b || !canSeeBuilding(p, { id: b.id, organizationId: b.organization_id }))
      throw invalid([{ path: 'buildingId', message: 'validation.notFound' }]);
    const details: ErrorDetail[] = [];
    const floor = await repo.floor(body.floorId);
    const floorOk = floor !== undefined && floor.building_id === b.id;
    if (!floorOk) details.push({ path: 'floorId', message: 'flowValidation.floorBuilding' });
    if (body.templateId != null && !(await repo.templateById(p, body.templateId)))
      details.push({ path: 'templateId', message: 'validation.notFound' });
    if (floorOk) {
      const [maps, speechTextIds, poseDefIds] = await Promise.all([
        flows.mapIdsOf([body.floorId]),
        flows.speechTextIdsOf(b.id),
        flows.poseDefIdsOf(b.organization_id, b.id),
      ]);
      const issues = validateWorkPlanDefinition(body.definition, {
        waypointIds: maps.waypoints.get(body.floorId) ?? new Set(),
        speechTextIds,
        poseDefIds,
      });
      for (const i of issues) details.push({ path: `definition.${i.path}`, message: i.message });
    }
    if (details.length > 0) throw invalid(details);
    return b.organization_id;
  }

  const columns = (body: WorkPlanInput, organizationId: number): WorkPlanColumns => ({
    organization_id: organizationId,
    building_id: body.buildingId,
    floor_id: body.floorId,
    template_id: body.templateId ?? null,
    name: body.name,
    description: body.description ?? '',
    icon: body.icon,
    type: body.type,
    status: body.status,
    definition: JSON.stringify(body.definition),
  });

  /** The organization a template is for: an organization administrator's own; a system administrator's choice or none. */
  async function templateOwner(p: Principal, asked: number | null | undefined): Promise<number | null> {
    if (!isSystemAdmin(p.type)) {
      if (asked != null && asked !== p.organizationId)
        throw invalid([{ path: 'organizationId', message: 'validation.notFound' }]);
      return p.organizationId;
    }
    if (asked == null) return null;
    if (!(await repo.organizationExists(asked)))
      throw invalid([{ path: 'organizationId', message: 'validation.notFound' }]);
    return asked;
  }

  /** May the caller change this template? Shipped ones are read-only; shared ones are system administrators'. */
  function requireTemplateWriter(p: Principal, row: WorkPlanTemplateRow): void {
    if (row.builtin_key !== null) throw forbidden('The templates the portal ships cannot be changed');
    if (row.organization_id === null && !isSystemAdmin(p.type))
      throw forbidden('Only system administrators change shared templates');
  }

  return {
    async list(p: Principal, rawFilter: string | undefined): Promise<{ items: WorkPlan[]; total: number }> {
      const f = parseFilter(rawFilter, workPlanFilter);
      refuseFields(f);
      return rowsInOrder(await repo.page(p, f), (ids) => repo.byIds(p, ids), toWorkPlan);
    },

    async get(p: Principal, id: number): Promise<WorkPlan> {
      return toWorkPlan(await load(p, id));
    },

    async create(p: Principal, body: WorkPlanInput, ip: string): Promise<WorkPlan> {
      requireManager(p);
      const organizationId = await check(p, body as WorkPlanInput & { definition: WorkPlanDefinition });
      const now = clock().toISOString();
      const id = await db.transaction().execute(async (trx) => {
        const id = await repo.insert(columns(body, organizationId), now, trx);
        await record(p, 'workPlan.create', { type: 'work-plan', id, organizationId }, ip, { name: body.name }, trx);
        return id;
      });
      return toWorkPlan(await load(p, id));
    },

    async update(p: Principal, id: number, body: UpdateWorkPlanBody, ip: string): Promise<WorkPlan> {
      requireManager(p);
      const current = await load(p, id);
      const organizationId = await check(p, body as WorkPlanInput & { definition: WorkPlanDefinition });
      if (organizationId !== current.organization_id)
        throw invalid([{ path: 'buildingId', message: 'flowValidation.organizationFixed' }]);
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
          'work plan',
          () => repo.exists(id, trx),
          () => notFound('Work plan'),
        );
        await record(p, 'workPlan.update', { type: 'work-plan', id, organizationId }, ip, { name: body.name }, trx);
      });
      return toWorkPlan(await load(p, id));
    },

    async remove(p: Principal, id: number, ip: string): Promise<void> {
      requireManager(p);
      const current = await load(p, id);
      await db.transaction().execute(async (trx) => {
        if (!(await repo.remove(id, trx))) throw notFound('Work plan');
        await record(
          p,
          'workPlan.delete',
          { type: 'work-plan', id, organizationId: current.organization_id },
          ip,
          { name: current.name },
          trx,
        );
      });
    },

    // ------------------------------------------------------------ templates

    async listTemplates(
      p: Principal,
      rawFilter: string | undefined,
    ): Promise<{ items: WorkPlanTemplate[]; total: number }> {
      const f = parseFilter(rawFilter, workPlanTemplateFilter);
      refuseFields(f);
      return rowsInOrder(await repo.templatePage(p, f), (ids) => repo.templatesByIds(p, ids), toWorkPlanTemplate);
    },

    async getTemplate(p: Principal, id: number): Promise<WorkPlanTemplate> {
      return toWorkPlanTemplate(await loadTemplate(p, id));
    },

    async createTemplate(p: Principal, body: WorkPlanTemplateInput, ip: string): Promise<WorkPlanTemplate> {
      requireManager(p);
      const organizationId = await templateOwner(p, body.organizationId);
      const now = clock().toISOString();
      const id = await db.transaction().execute(async (trx) => {
        const id = await repo.insertTemplate(
          {
            organization_id: organizationId,
            name: body.name,
            description: body.description ?? '',
            type: body.type,
            definition: JSON.stringify(body.definition),
          },
          now,
          trx,
        );
        await record(
          p,
          'workPlanTemplate.create',
          { type: 'work-plan-template', id, organizationId },
          ip,
          { name: body.name },
          trx,
        );
        return id;
      });
      return toWorkPlanTemplate(await loadTemplate(p, id));
    },

    async updateTemplate(
      p: Principal,
      id: number,
      body: UpdateWorkPlanTemplateBody,
      ip: string,
    ): Promise<WorkPlanTemplate> {
      requireManager(p);
      const current = await loadTemplate(p, id);
      requireTemplateWriter(p, current);
      const organizationId =
        body.organizationId === undefined ? current.organization_id : await templateOwner(p, body.organizationId);
      const version = nextVersion(clock(), current.updated_at);
      await db.transaction().execute(async (trx) => {
        const written = await repo.updateTemplateVersioned(
          id,
          body.updatedAt,
          {
            organization_id: organizationId,
            name: body.name,
            description: body.description ?? '',
            type: body.type,
            definition: JSON.stringify(body.definition),
            updated_at: version,
          },
          trx,
        );
        await expectVersioned(
          written,
          'work plan template',
          () => repo.templateExists(id, trx),
          () => notFound('Work plan template'),
        );
        await record(
          p,
          'workPlanTemplate.update',
          { type: 'work-plan-template', id, organizationId },
          ip,
          { name: body.name },
          trx,
        );
      });
      return toWorkPlanTemplate(await loadTemplate(p, id));
    },

    async removeTemplate(p: Principal, id: number, ip: string): Promise<void> {
      requireManager(p);
      const current = await loadTemplate(p, id);
      requireTemplateWriter(p, current);
      await db.transaction().execute(async (trx) => {
        if (!(await repo.removeTemplate(id, trx))) throw notFound('Work plan template');
        await record(
          p,
          'workPlanTemplate.delete',
          { type: 'work-plan-template', id, organizationId: current.organization_id },
          ip,
          { name: current.name },
          trx,
        );
      });
    },
  };
}
