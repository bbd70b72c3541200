import { triggerConditionsSchema, type TriggerConditions } from '@portal/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { triggerRepo } from './trigger-repo.ts';
import type { TriggerRow } from './trigger-tables.ts';

/** The trigger event type each notification event kind belongs to (kinds not listed fire no trigger). */
export const EVENT_TYPE_OF_KIND: Readonly<Record<string, number>> = {
  scheduleFailed: 0,
  emergencyStop: 1,
  lowBattery: 1,
  hardwareError: 1,
  robotOffline: 1,
  thresholdBreach: 2,
};

/** A notification event as recorded, what triggers are matched on. */
export interface RecordedEvent {
  eventId: number;
  kind: string;
  level: number;
  organizationId: number;
  /** null: no building, no trigger. */
  buildingId: number | null;
  robotId?: number | null;
  /** The event's dedupe key: a threshold breach's names its log line (`thresholdBreach:eval:<id>`). */
  dedupeKey?: string;
  details?: Record<string, string | number | boolean | null>;
}

/**
 * Writes one pending firing per enabled trigger of the event's building whose conditions the event
 * meets (docs/api-triggers.md "Firing"). Run in the transaction that records the event: the event
 * and its firings are written together or not at all, and `(trigger_id, event_id)` is unique, so an
 * event fires a trigger once. Answers the firings' ids.
 */
export async function recordFirings(trx: Kysely<Database>, e: RecordedEvent, at: Date): Promise<number[]> {
  const buildingId = e.buildingId;
  const robotId = e.robotId ?? null;
  const now = at.toISOString();
  if (buildingId === null) return [];
  const eventType = EVENT_TYPE_OF_KIND[e.kind];
  if (eventType === undefined) return [];
  const repo = triggerRepo(trx);
  const triggers = await repo.enabledOf(buildingId, [eventType], trx);
  if (triggers.length === 0) return [];
  // Facts a condition may ask about, read once and only when asked.
  const once = <T>(read: () => Promise<T>) => {
    let p: Promise<T> | null = null;
    return () => (p ??= read());
  };
  const robotGroup = once(() => (robotId === null ? Promise.resolve(null) : repo.robotGroupOf(robotId, trx)));
  const thresholdLog = once(async () => {
    const m = /^thresholdBreach:eval:(\d+)$/.exec(e.dedupeKey ?? '');
    return m ? ((await repo.thresholdLog(Number(m[1]), trx)) ?? null) : null;
  });
  const schedule = once(async () => {
    const line = e.details?.scheduleLogId;
    return typeof line === 'number' ? repo.scheduleOfLine(line, trx) : null;
  });

  async function matches(t: TriggerRow): Promise<boolean> {
    let c: TriggerConditions;
    try {
      c = triggerConditionsSchema.parse(JSON.parse(t.conditions));
    } catch {
      return false;
    }
    if (eventType === 1) {
      if (!c.robotStatuses.includes(e.kind as never)) return false;
      if (c.robotId && c.robotId !== robotId) return false;
      if (c.robotGroupId && c.robotGroupId !== (await robotGroup())) return false;
      return true;
    }
    if (eventType === 2) {
      if (c.minLevel !== null && c.minLevel !== undefined && e.level < c.minLevel) return false;
      if (c.ruleId || c.checkItemId) {
        const log = await thresholdLog();
        if (!log) return false;
        if (c.ruleId && c.ruleId !== log.rule_id) return false;
        if (c.checkItemId && c.checkItemId !== log.check_item_id) return false;
      }
      return true;
    }
    if (c.scheduleId && c.scheduleId !== (await schedule())) return false;
    return true;
  }

  const ids: number[] = [];
  for (const t of triggers) {
    if (!(await matches(t))) continue;
    const id = await repo.insertFiring(
      {
        organization_id: t.organization_id,
        building_id: t.building_id,
        trigger_id: t.id,
        trigger_name: t.name,
        event_id: e.eventId,
        event_kind: e.kind,
        robot_id: robotId,
        target_type: t.target_type,
        status: 'pending',
        stage: null,
        next_attempt_at: now,
        lease_owner: null,
        lease_until: null,
        error: null,
        flow_run_id: null,
        run_robot_id: null,
        report_id: null,
        notification_event_id: null,
        webhook_delivery_id: null,
        created_at: now,
        done_at: null,
      },
      trx,
    );
    if (id !== null) ids.push(id);
  }
  return ids;
}
