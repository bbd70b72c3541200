import type { ThresholdNotified } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import type { NotificationEventInput } from '../notifications/notification-engine.ts';
import type { NotificationLevel } from '../notifications/notification-texts.ts';
import { thresholdService } from '../thresholds/threshold-service.ts';
import { meterCheckRepo } from './meter-check-repo.ts';
import type { MeterItem, MeterReadingService } from './reading-service.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'caches' | 'config'>;

export interface MeterCheckDeps {
  ctx: Ctx;
  /** The item's reading service (readers.ts `meterReaders`). */
  readerFor: (item: Pick<MeterItem, 'readingService'>) => MeterReadingService;
  /** The notification engine's `notifyEvent` (docs/notifications.md). */
  notify?: (e: NotificationEventInput) => Promise<unknown>;
}

export interface MeterCheckInput {
  checkItemId: number;
  robotId: number | null;
  photo: Uint8Array;
  /** The stored photo (files), recorded on a breach's log line. */
  photoFileKey: string | null;
  at?: string;
}

/** What a check found: the step's data (a report detail's values). */
export interface MeterCheckResult {
  checkItemId: number;
  checkItemName: string;
  ok: boolean;
  value: number | null;
  qr: string | null;
  /** MARKER_NOT_FOUND or READ_FAILED when nothing was read. */
  errorCode: 'MARKER_NOT_FOUND' | 'READ_FAILED' | null;
  message: string | null;
  /** The threshold log line of a breach, and the breached rule's level. */
  breachLogId: number | null;
  breachLevel: number | null;
}

const CHANNELS: Record<number, string> = { 0: 'email', 1: 'slack', 2: 'sms', 3: 'phone', 6: 'chatbot' };

/**
 * A meter check (docs/meter-reading.md): the photo read by the item's reading service, then the
 * value judged by the item's threshold rule (`recordEvaluation`): a breach writes a threshold log
 * line and, when the item alerts, a `thresholdBreach` notification at the rule's level, whose
 * targets the line records. Answers null when the item is gone.
 */
export async function meterCheck(deps: MeterCheckDeps, input: MeterCheckInput): Promise<MeterCheckResult | null> {
  const { ctx } = deps;
  const repo = meterCheckRepo(ctx.db);
  const row = await repo.item(input.checkItemId);
  if (!row) return null;
  const item: MeterItem = {
    id: row.id,
    buildingId: row.building_id,
    qrCodeNumber: row.qr_code_number,
    taskId: row.task_id,
    deviceId: row.device_id,
    meterType: row.meter_type,
    readingService: row.reading_service,
    definition: row.definition,
  } as MeterItem;
  const read = await deps.readerFor(item).read(input.photo, item);
  const result: MeterCheckResult = {
    checkItemId: row.id,
    checkItemName: row.name,
    ok: read.ok,
    value: read.ok ? read.value : null,
    qr: read.ok ? read.qr : null,
    errorCode: read.ok ? null : read.code,
    message: read.ok ? null : read.message,
    breachLogId: null,
    breachLevel: null,
  };
  if (!read.ok || row.threshold_rule_id === null) return result;
  const notify = deps.notify;
  const breach = await thresholdService(ctx).recordEvaluation(
    {
      ruleId: row.threshold_rule_id,
      value: read.value,
      organizationId: row.organization_id,
      buildingId: row.building_id,
      robotId: input.robotId,
      checkItemId: row.id,
      checkItemName: row.name,
      photoFileKey: input.photoFileKey,
      ...(input.at ? { at: input.at } : {}),
    },
    row.alerting === 1 && notify
      ? {
          onBreach: async ({ log, rule }): Promise<ThresholdNotified[]> => {
            const sent = (await notify({
              kind: 'thresholdBreach',
              organizationId: row.organization_id,
              buildingId: row.building_id,
              ...(input.robotId !== null ? { robotId: input.robotId } : {}),
              floorId: row.floor_id,
              level: (rule.level >= 9 ? 9 : rule.level >= 5 ? 5 : 0) as NotificationLevel,
              message: `${rule.name}: ${row.name} ${read.value}`,
              details: { ruleName: rule.name, checkItemName: row.name, value: read.value },
              groupKey: `thresholdBreach:rule:${rule.id}`,
              dedupeKey: `thresholdBreach:eval:${log.id}`,
            })) as { targets?: number[] } | null;
            const targets = await repo.targets(sent?.targets ?? []);
            return targets.map((t) => ({
              channel: CHANNELS[t.type] ?? String(t.type),
              targetId: t.id,
              name: t.room || (t.address_sealed ? `#${t.id}` : t.address),
            }));
          },
        }
      : {},
  );
  if (breach) {
    result.breachLogId = breach.log.id;
    result.breachLevel = breach.rule.level;
  }
  return result;
}
