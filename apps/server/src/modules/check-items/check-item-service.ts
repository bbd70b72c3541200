import {
  isAdmin,
  type CheckItem,
  type CheckItemInput,
  type ErrorDetail,
  type UpdateCheckItemBody,
} from '@portal/contract';
import type { Kysely } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { parseFilter } from '../../lib/filter.ts';
import { refuseFields, rowsInOrder } from '../../lib/list-answer.ts';
import { canSeeBuilding, canSeeOrganization } from '../../lib/scope.ts';
import { expectVersioned, nextVersion } from '../../lib/versioned.ts';
import {
  checkItemFilter,
  checkItemRepo,
  toCheckItem,
  type CheckItemColumns,
  type CheckItemRow,
} from './check-item-repo.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit'>;

const invalid = (details: ErrorDetail[]) =>
  new AppError('VALIDATION_FAILED', `Invalid ${details.map((d) => d.path).join(', ')}`, details);

/** Writing check items: administrators (any type but general operators), within their scope. */
function requireWriter(p: Pick<Principal, 'type'>): void {
  if (!isAdmin(p.type)) throw forbidden('Only administrators can change check items');
}

/**
 * Check items (docs/api-check-items.md). Reading within tenancy (general operators: their building);
 * writing for administrators within their scope. Another tenant's item is "not found". The field
 * rules come with the contract's schema; here those that need the database: the building is the
 * caller's to use, the floor is of that building, the threshold rule is of the building's
 * organization. A visual item keeps no meter fields. A stale edit is 409 STALE_UPDATE.
 */
export function checkItemService({ db, clock, audit }: Ctx) {
  const repo = checkItemRepo(db);

  const record = (
    p: Principal,
    action: 'checkItem.create' | 'checkItem.update' | 'checkItem.delete',
    target: { id: number; organizationId: number },
    ip: string,
    detail: Record<string, unknown>,
    trx: Kysely<Database>,
  ) =>
    audit.record(
      {
        operatorId: p.operatorId,
        organizationId: target.organizationId,
        action,
        targetType: 'check-item',
        targetId: target.id,
        ip,
        detail,
      },
      trx,
    );

  async function load(p: Principal, id: number): Promise<CheckItemRow> {
    const row = await repo.byId(p, id);
    if (!row) throw notFound('Check item');
    return row;
  }

  /** The organization of the item's building, after checking what the body names: 400 on each field that fails. */
  async function placement(p: Principal, body: CheckItemInput): Promise<{ organizationId: number }> {
    const building = await repo.building(body.buildingId);
    if (!building || !canSeeBuilding(p, { id: building.id, organizationId: building.organization_id }))
      throw invalid([{ path: 'buildingId', message: 'validation.notFound' }]);
    const details: ErrorDetail[] = [];
    const floor = await repo.floor(body.floorId);
    if (!floor) details.push({ path: 'floorId', message: 'validation.notFound' });
    else if (floor.building_id !== building.id) details.push({ path: 'floorId', message: 'validation.notInBuilding' });
    if (body.thresholdRuleId !== null) {
      const rule = await repo.thresholdRule(body.thresholdRuleId);
      if (!rule || rule.organization_id !== building.organization_id || !canSeeOrganization(p, rule.organization_id))
        details.push({ path: 'thresholdRuleId', message: 'validation.notFound' });
    }
    if (details.length > 0) throw invalid(details);
    return { organizationId: building.organization_id };
  }

  const columns = (body: CheckItemInput, organizationId: number): CheckItemColumns => {
    const meter = body.type === 'meter';
    return {
      organization_id: organizationId,
      building_id: body.buildingId,
      floor_id: body.floorId,
      name: body.name,
      type: body.type,
      status: body.status,
      meter_type: meter ? body.meterType : null,
      reading_service: meter ? body.readingService : null,
      qr_code_number: body.qrCodeNumber,
      task_id: meter ? body.taskId : '',
      device_id: meter ? body.deviceId : '',
      alerting: body.alerting ? 1 : 0,
      threshold_rule_id: body.thresholdRuleId,
      x: body.x,
      y: body.y,
      z: body.z,
      direction: body.direction,
      marker_type: body.markerType,
      area_detection_marker: body.areaDetectionMarker ? 1 : 0,
      definition: body.definition,
    };
  };

  return {
    async list(p: Principal, rawFilter: string | undefined): Promise<{ items: CheckItem[]; total: number }> {
      const f = parseFilter(rawFilter, checkItemFilter);
      refuseFields(f);
      return rowsInOrder(await repo.page(p, f), (ids) => repo.byIds(p, ids), toCheckItem);
    },

    async get(p: Principal, id: number): Promise<CheckItem> {
      return toCheckItem(await load(p, id));
    },

    async create(p: Principal, body: CheckItemInput, ip: string): Promise<CheckItem> {
      requireWriter(p);
      const { organizationId } = await placement(p, body);
      const now = clock().toISOString();
      const id = await db.transaction().execute(async (trx) => {
        const id = await repo.insert(columns(body, organizationId), now, trx);
        await record(p, 'checkItem.create', { id, organizationId }, ip, { name: body.name }, trx);
        return id;
      });
      return toCheckItem(await load(p, id));
    },

    async update(p: Principal, id: number, body: UpdateCheckItemBody, ip: string): Promise<CheckItem> {
      requireWriter(p);
      const current = await load(p, id);
      const { organizationId } = await placement(p, body);
      if (organizationId !== current.organization_id)
        throw invalid([{ path: 'buildingId', message: 'validation.notFound' }]);
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
          'check item',
          () => repo.exists(id, trx),
          () => notFound('Check item'),
        );
        await record(p, 'checkItem.update', { id, organizationId }, ip, { name: body.name }, trx);
      });
      return toCheckItem(await load(p, id));
    },

    async remove(p: Principal, id: number, ip: string): Promise<void> {
      requireWriter(p);
      const current = await load(p, id);
      await db.transaction().execute(async (trx) => {
        if (!(await repo.remove(id, trx))) throw notFound('Check item');
        await record(
          p,
          'checkItem.delete',
          { id, organizationId: current.organization_id },
          ip,
          { name: current.name },
          trx,
        );
      });
    },
  };
}
export type CheckItemService = ReturnType<typeof checkItemService>;
