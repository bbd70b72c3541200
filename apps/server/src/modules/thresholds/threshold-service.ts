import { z } from 'zod';
import {
  evaluateThreshold,
  isDataAdmin,
  isSystemAdmin,
  thresholdLogSchema,
  thresholdRuleSchema,
  type AuditAction,
  type ErrorDetail,
  type ThresholdCondition,
  type ThresholdLog,
  type ThresholdNotified,
  type ThresholdRule,
  type ThresholdRuleInput,
  type UpdateThresholdRuleBody,
} from '@portal/contract';
import type { Kysely } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { parseFilter } from '../../lib/filter.ts';
import { cachedLists, refuseFields, type ListAnswer } from '../../lib/list-answer.ts';
import { expectVersioned, nextVersion, staleUpdate } from '../../lib/versioned.ts';
import { signFileUrl } from '../files/signed-url.ts';
import {
  thresholdLogFilter,
  thresholdRepo,
  thresholdRuleFilter,
  toThresholdLog,
  toThresholdRule,
  type ThresholdRuleColumns,
  type ThresholdRuleRow,
} from './threshold-repo.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'caches' | 'config'>;

const invalid = (details: ErrorDetail[]) =>
  new AppError('VALIDATION_FAILED', `Invalid ${details.map((d) => d.path).join(', ')}`, details);

/**
 * 409 IN_USE naming the check items that use a rule: one detail per item (`checkItems.{id}`, its
 * name). A check item that alerts needs its rule (spec §5), so a rule in use is not deleted.
 */
const inUse = (items: Array<{ id: number; name: string }>) =>
  new AppError(
    'IN_USE',
    `The threshold rule is used by check items: ${items.map((i) => i.name).join(', ')}`,
    items.map((i) => ({ path: `checkItems.${i.id}`, message: i.name, code: 'thresholds.inUse' })),
  );

const listSchema = z.array(thresholdRuleSchema);
const logListSchema = z.array(thresholdLogSchema);

/** One reading of a check item against a threshold rule (from a flow run's check step). */
export interface ThresholdReading {
  ruleId: number;
  value: number;
  /** The check item's organization: a rule of another organization is never evaluated. */
  organizationId: number;
  buildingId: number | null;
  robotId: number | null;
  checkItemId: number | null;
  checkItemName: string;
  photoFileKey?: string | null;
  reportId?: number | null;
  reportDetailId?: number | null;
  /** When the value was read (ISO); now when absent. */
  at?: string;
}

/** A breach just logged: the line and the rule it breached. */
export interface ThresholdBreach {
  log: ThresholdLog;
  rule: ThresholdRule;
}

/**
 * Called once per breach after its log line is written (the notification engine): answers who was
 * notified, which the line then records. It does not send here; it is handed in by the caller.
 */
export type ThresholdBreachHook = (breach: ThresholdBreach) => Promise<ThresholdNotified[] | void>;

/**
 * Threshold rules and their log (docs/api-thresholds.md). Reading: every operator of the
 * organization (system administrators all). Changing: organization and system administrators
 * (spec §1, §6); area managers and general operators 403. Another organization's rule is 404.
 */
export function thresholdService({ db, clock, audit, caches, config }: Ctx) {
  const cachedList = cachedLists(caches.lists);
  const repo = thresholdRepo(db);
  const photoUrl = (key: string) => signFileUrl(config.secretKey, config.apiBase, key, clock());

  const record = (
    p: Principal,
    action: AuditAction,
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
        targetType: 'threshold-rule',
        targetId: row.id,
        ip,
        detail,
      },
      trx,
    );

  const requireManager = (p: Principal) => {
    if (!isDataAdmin(p.type))
      throw forbidden('Only organization administrators can register, update or delete threshold rules');
  };

  async function load(p: Principal, id: number): Promise<ThresholdRuleRow> {
    const row = await repo.byId(p, id);
    if (!row) throw notFound('Threshold rule');
    return row;
  }

  /** The organization of a new rule: the caller's own; system administrators may name another. */
  async function organizationOf(p: Principal, requested: number | undefined): Promise<number> {
    const organizationId = requested ?? p.organizationId;
    if (organizationId === p.organizationId) return organizationId;
    if (!isSystemAdmin(p.type) || !(await repo.organizationExists(organizationId)))
      throw invalid([{ path: 'organizationId', message: 'validation.notFound' }]);
    return organizationId;
  }

  const columns = (
    body: ThresholdRuleInput | UpdateThresholdRuleBody,
    organizationId: number,
  ): ThresholdRuleColumns => ({
    organization_id: organizationId,
    name: body.name,
    description: body.description,
    level: body.level,
    status: body.status,
    conditions: JSON.stringify(body.conditions),
  });

  return {
    async list(p: Principal, rawFilter: string | undefined): Promise<ListAnswer> {
      const f = parseFilter(rawFilter, thresholdRuleFilter);
      refuseFields(f);
      return cachedList('threshold-rules', p, rawFilter, listSchema, async () => {
        const { rows, total } = await repo.page(p, f);
        return { items: rows.map(toThresholdRule), total };
      });
    },

    async get(p: Principal, id: number): Promise<ThresholdRule> {
      return toThresholdRule(await load(p, id));
    },

    async create(p: Principal, body: ThresholdRuleInput, ip: string): Promise<ThresholdRule> {
      requireManager(p);
      const organizationId = await organizationOf(p, body.organizationId);
      const now = clock().toISOString();
      const id = await db.transaction().execute(async (trx) => {
        const id = await repo.insert(columns(body, organizationId), now, trx);
        await record(p, 'threshold.create', { id, organizationId }, ip, { name: body.name, level: body.level }, trx);
        return id;
      });
      return toThresholdRule(await load(p, id));
    },

    /** The organization of a rule is fixed. */
    async update(p: Principal, id: number, body: UpdateThresholdRuleBody, ip: string): Promise<ThresholdRule> {
      requireManager(p);
      const current = await load(p, id);
      const before = toThresholdRule(current);
      const changed = (['name', 'description', 'level', 'status', 'conditions'] as const).filter(
        (k) => JSON.stringify(before[k]) !== JSON.stringify(body[k]),
      );
      if (changed.length === 0) {
        if (body.updatedAt !== current.updated_at) throw staleUpdate('threshold rule');
        return before;
      }
      const version = nextVersion(clock(), current.updated_at);
      await db.transaction().execute(async (trx) => {
        const written = await repo.updateVersioned(
          id,
          body.updatedAt,
          { ...columns(body, current.organization_id), updated_at: version },
          trx,
        );
        await expectVersioned(
          written,
          'threshold rule',
          () => repo.exists(id, trx),
          () => notFound('Threshold rule'),
        );
        await record(
          p,
          'threshold.update',
          { id, organizationId: current.organization_id },
          ip,
          { fields: changed },
          trx,
        );
      });
      return toThresholdRule(await load(p, id));
    },

    /** Refused (409 IN_USE, naming them) while check items use the rule. Its log lines stay, naming it. */
    async remove(p: Principal, id: number, ip: string): Promise<void> {
      requireManager(p);
      const current = await load(p, id);
      await db.transaction().execute(async (trx) => {
        const users = await repo.checkItemsUsing(id, trx);
        if (users.length > 0) throw inUse(users);
        // Recorded first: the audit entry names its target while the row is still there.
        await record(
          p,
          'threshold.delete',
          { id, organizationId: current.organization_id },
          ip,
          { name: current.name },
          trx,
        );
        if (!(await repo.remove(id, trx))) throw notFound('Threshold rule');
      });
    },

    async logs(p: Principal, rawFilter: string | undefined): Promise<ListAnswer> {
      const f = parseFilter(rawFilter, thresholdLogFilter);
      refuseFields(f);
      return cachedList('threshold-logs', p, rawFilter, logListSchema, async () => {
        const { rows, total } = await repo.logPage(p, f);
        return { items: rows.map((r) => toThresholdLog(r, photoUrl)), total };
      });
    },

    /**
     * Evaluates one reading against its rule and, when it breaches the rule, writes a log line and
     * calls `onBreach` (the notification engine) with it; what the hook answers (who was notified) is
     * recorded on the line. No breach (the value is within the rule, the rule is disabled, gone or of
     * another organization, or nothing was read): nothing is written and the answer is null.
     */
    async recordEvaluation(
      reading: ThresholdReading,
      opts: { onBreach?: ThresholdBreachHook } = {},
    ): Promise<ThresholdBreach | null> {
      const row = await repo.anyById(reading.ruleId);
      if (!row || row.organization_id !== reading.organizationId) return null;
      const rule = toThresholdRule(row);
      const condition: ThresholdCondition | null = evaluateThreshold(rule, reading.value);
      if (!condition) return null;
      const id = await repo.insertLog({
        organization_id: reading.organizationId,
        building_id: reading.buildingId,
        robot_id: reading.robotId,
        rule_id: rule.id,
        rule_name: rule.name,
        check_item_id: reading.checkItemId,
        check_item_name: reading.checkItemName,
        value: reading.value,
        condition: JSON.stringify(condition),
        level: rule.level,
        photo_file_key: reading.photoFileKey ?? null,
        report_id: reading.reportId ?? null,
        report_detail_id: reading.reportDetailId ?? null,
        notified: '[]',
        at: reading.at ?? clock().toISOString(),
      });
      let log = toThresholdLog((await repo.logById(id))!, photoUrl);
      const notified = opts.onBreach ? await opts.onBreach({ log, rule }) : undefined;
      if (notified && notified.length > 0) {
        await repo.setNotified(id, JSON.stringify(notified));
        log = { ...log, notified };
      }
      return { log, rule };
    },
  };
}
export type ThresholdService = ReturnType<typeof thresholdService>;
