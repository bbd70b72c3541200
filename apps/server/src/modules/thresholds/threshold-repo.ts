import {
  isSystemAdmin,
  OperatorType,
  thresholdConditionSchema,
  thresholdNotifiedSchema,
  type ThresholdLog,
  type ThresholdRule,
} from '@portal/contract';
import { z } from 'zod';
import type { ExpressionBuilder, Insertable, Kysely, Selectable } from 'kysely';
import type { Database, ThresholdLogTable, ThresholdRuleTable } from '../../db/schema.ts';
import { deleteById, findById, insertReturningId, rowExists, updateVersioned } from '../../db/rows.ts';
import { filteredPage, type ParsedFilter } from '../../lib/filter.ts';
import { filterSpec, ID_FIELD, TIMESTAMP_FIELDS } from '../../lib/filter-spec.ts';
import type { TenantScope } from '../../lib/scope.ts';
// The check items table (migration 029): a rule in use is not deleted.
import '../check-items/check-item-tables.ts';

/** Allow-list of `GET /threshold-rules?filter=` (search: `name: { like: '%text%' }`). */
export const thresholdRuleFilter = filterSpec(
  'threshold_rules',
  {
    ...ID_FIELD,
    organizationId: 'integer',
    name: 'string',
    description: 'string',
    level: 'integer',
    status: 'integer',
    ...TIMESTAMP_FIELDS,
  },
  { defaultOrder: 'name ASC' },
);

/** Allow-list of `GET /threshold-logs?filter=`, newest first. */
export const thresholdLogFilter = filterSpec(
  'threshold_logs',
  {
    ...ID_FIELD,
    organizationId: 'integer',
    buildingId: 'integer',
    robotId: 'integer',
    ruleId: 'integer',
    ruleName: 'string',
    checkItemId: 'integer',
    checkItemName: 'string',
    value: 'number',
    level: 'integer',
    reportId: 'integer',
    at: 'date',
  },
  { defaultOrder: 'at DESC', defaultLimit: 50, maxLimit: 200 },
);

/** Rules: system administrators every organization's, everyone else their organization's. */
const ruleScope = (p: TenantScope) => (eb: ExpressionBuilder<Database, 'threshold_rules'>) =>
  isSystemAdmin(p.type) ? eb.and([]) : eb('threshold_rules.organization_id', '=', p.organizationId);

/**
 * Log lines: system administrators all; others their organization's; general operators only those of
 * their building and those of no building.
 */
const logScope = (p: TenantScope) => (eb: ExpressionBuilder<Database, 'threshold_logs'>) => {
  if (isSystemAdmin(p.type)) return eb.and([]);
  const org = eb('threshold_logs.organization_id', '=', p.organizationId);
  if (p.type !== OperatorType.general) return org;
  return eb.and([
    org,
    eb.or([eb('threshold_logs.building_id', 'is', null), eb('threshold_logs.building_id', '=', p.buildingId ?? -1)]),
  ]);
};

export type ThresholdRuleRow = Selectable<ThresholdRuleTable>;
export type ThresholdLogRow = Selectable<ThresholdLogTable>;
/** The columns an edit writes (conditions as JSON text). */
export type ThresholdRuleColumns = Omit<ThresholdRuleRow, 'id' | 'created_at' | 'updated_at'>;
export type ThresholdLogColumns = Omit<Insertable<ThresholdLogTable>, 'id'>;

const conditions = z.array(thresholdConditionSchema);
const notified = z.array(thresholdNotifiedSchema);

export const toThresholdRule = (r: ThresholdRuleRow): ThresholdRule => ({
  id: r.id,
  organizationId: r.organization_id,
  name: r.name,
  description: r.description,
  level: r.level,
  status: r.status,
  conditions: conditions.parse(JSON.parse(r.conditions)),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** A log line as the API shows it; `photoUrl` signs the photo's key. */
export const toThresholdLog = (r: ThresholdLogRow, photoUrl: (key: string) => string): ThresholdLog => ({
  id: r.id,
  organizationId: r.organization_id,
  buildingId: r.building_id,
  robotId: r.robot_id,
  ruleId: r.rule_id,
  ruleName: r.rule_name,
  checkItemId: r.check_item_id,
  checkItemName: r.check_item_name,
  value: Number(r.value),
  condition: thresholdConditionSchema.parse(JSON.parse(r.condition)),
  level: r.level,
  photoFileKey: r.photo_file_key,
  photoUrl: r.photo_file_key === null ? null : photoUrl(r.photo_file_key),
  reportId: r.report_id,
  reportDetailId: r.report_detail_id,
  notified: notified.parse(JSON.parse(r.notified)),
  at: r.at,
});

/** SQL of threshold rules and their log. Reads are within the caller's scope unless said otherwise. */
export function thresholdRepo(db: Kysely<Database>) {
  const rules = (p: TenantScope, trx: Kysely<Database> = db) => trx.selectFrom('threshold_rules').where(ruleScope(p));
  const logs = (p: TenantScope) => db.selectFrom('threshold_logs').where(logScope(p));
  return {
    byId: (p: TenantScope, id: number, trx?: Kysely<Database>): Promise<ThresholdRuleRow | undefined> =>
      rules(p, trx).selectAll().where('id', '=', id).executeTakeFirst(),
    /** A rule by id whatever the caller (the evaluation of a check item's reading). */
    anyById: (id: number, trx: Kysely<Database> = db): Promise<ThresholdRuleRow | undefined> =>
      findById(trx, 'threshold_rules', id),
    page: (p: TenantScope, f: ParsedFilter) => filteredPage(rules(p), f, (q) => q.selectAll()),
    logPage: (p: TenantScope, f: ParsedFilter) => filteredPage(logs(p), f, (q) => q.selectAll()),
    insert: (columns: ThresholdRuleColumns, now: string, trx: Kysely<Database>): Promise<number> =>
      insertReturningId(trx, 'threshold_rules', { ...columns, created_at: now, updated_at: now }),
    updateVersioned: (
      id: number,
      base: string,
      columns: ThresholdRuleColumns & { updated_at: string },
      trx: Kysely<Database>,
    ): Promise<bigint> => updateVersioned(trx, 'threshold_rules', id, base, columns),
    exists: (id: number, trx: Kysely<Database> = db) => rowExists(trx, 'threshold_rules', id),
    /** Whether the row was there; its log lines keep their rule's name (rule_id set null). */
    remove: (id: number, trx: Kysely<Database>): Promise<boolean> => deleteById(trx, 'threshold_rules', id),
    insertLog: (columns: ThresholdLogColumns, trx: Kysely<Database> = db): Promise<number> =>
      insertReturningId(trx, 'threshold_logs', columns),
    logById: (id: number, trx: Kysely<Database> = db): Promise<ThresholdLogRow | undefined> =>
      findById(trx, 'threshold_logs', id),
    /** Records who was notified of a breach (the notification engine, once it has sent). */
    async setNotified(id: number, json: string, trx: Kysely<Database> = db): Promise<void> {
      await trx.updateTable('threshold_logs').set({ notified: json }).where('id', '=', id).execute();
    },
    organizationExists: (id: number) => rowExists(db, 'organizations', id),
    /** The check items that judge their value by the rule (any organization: in use is in use), by name. */
    checkItemsUsing: (ruleId: number, trx: Kysely<Database> = db, limit = 20) =>
      trx
        .selectFrom('check_items')
        .select(['id', 'name'])
        .where('threshold_rule_id', '=', ruleId)
        .orderBy('name')
        .orderBy('id')
        .limit(limit)
        .execute(),
  };
}
export type ThresholdRepo = ReturnType<typeof thresholdRepo>;
