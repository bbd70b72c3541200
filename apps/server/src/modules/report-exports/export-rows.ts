import { EXPORT_COLUMNS, type ExportColumn } from '@portal/contract';
import type { ExportRepo } from './export-repo.ts';
import { valuesInWords, type ExportTexts } from './export-texts.ts';
import type { Cell } from './file-writer.ts';

/** A row of `exportRepo.rowsAfter`. */
export type ExportSourceRow = Awaited<ReturnType<ExportRepo['rowsAfter']>>[number];

export const DEFAULT_TIME_ZONE = 'Asia/Tokyo';
const QUARTER_HOUR = 15 * 60_000;

/**
 * `YYYY-MM-DD HH:mm:ss` of instants in a zone, fast enough for millions of cells: the zone's offset
 * is asked of Intl once per zone and quarter hour (offsets change only on quarter hours) and the
 * wall clock is computed from it.
 */
export function zonedFormatter(): (iso: string | null, timeZone: string | null) => string {
  const formatters = new Map<string, Intl.DateTimeFormat>();
  const offsets = new Map<string, number>();
  const formatterOf = (tz: string): Intl.DateTimeFormat => {
    let f = formatters.get(tz);
    if (!f) {
      try {
        f = new Intl.DateTimeFormat('en-US', {
          timeZone: tz,
          hourCycle: 'h23',
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
        });
      } catch {
        f = formatterOf(DEFAULT_TIME_ZONE);
      }
      formatters.set(tz, f);
    }
    return f;
  };
  const offsetOf = (ms: number, tz: string): number => {
    const bucket = Math.floor(ms / QUARTER_HOUR);
    const key = `${tz}|${bucket}`;
    let off = offsets.get(key);
    if (off === undefined) {
      const at = bucket * QUARTER_HOUR;
      const p: Record<string, string> = {};
      for (const part of formatterOf(tz).formatToParts(new Date(at))) p[part.type] = part.value;
      off = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!) - at;
      if (offsets.size > 100_000) offsets.clear();
      offsets.set(key, off);
    }
    return off;
  };
  return (iso, timeZone) => {
    if (!iso) return '';
    const ms = Date.parse(iso);
    if (Number.isNaN(ms)) return iso;
    const local = new Date(ms + offsetOf(ms, timeZone ?? DEFAULT_TIME_ZONE)).toISOString();
    return `${local.slice(0, 10)} ${local.slice(11, 19)}`;
  };
}

/** A photo's download name, as the report screen names it: `<robot>-<yyyymmdd-hhmmss>-<seq>.<ext>`. */
const photoName = (robot: string, local: string, seq: number, type: string | null) =>
  `${robot}-${local.replace(/[-:]/g, '').replace(' ', '-')}-${seq}.${type === 'image/jpeg' ? 'jpg' : 'png'}`;

/** Turns source rows into the cells of EXPORT_COLUMNS, codes as words of the exporter's language. */
export function rowMapper(texts: ExportTexts): (r: ExportSourceRow) => Cell[] {
  const time = zonedFormatter();
  const word = (table: Record<string, string>, code: number | string) => table[String(code)] ?? String(code);
  const cell: Record<ExportColumn, (r: ExportSourceRow) => Cell> = {
    reportId: (r) => r.report_id,
    reportType: (r) => word(texts.reportTypes, r.report_type),
    buildingName: (r) => r.building_name,
    floorName: (r) => r.floor_name,
    robotName: (r) => r.robot_name,
    robotSerial: (r) => r.robot_serial,
    flowName: (r) => r.flow_name,
    caller: (r) => word(texts.callers, r.caller) + (r.caller_name ? ` (${r.caller_name})` : ''),
    reportStartedAt: (r) => time(r.report_started_at, r.time_zone),
    reportEndedAt: (r) => time(r.report_ended_at, r.time_zone),
    reportResult: (r) => word(texts.results, r.report_result),
    seq: (r) => r.seq,
    detailType: (r) => word(texts.detailTypes, r.type),
    stepKind: (r) => r.kind,
    detailResult: (r) => word(texts.results, r.result),
    detailStartedAt: (r) => time(r.started_at, r.time_zone),
    detailEndedAt: (r) => time(r.ended_at, r.time_zone),
    errorCode: (r) => r.error_code,
    message: (r) => r.message,
    values: (r) => valuesCell(r.values_json, r.message),
    photo: (r) =>
      r.photo_file_key
        ? photoName(r.robot_name, time(r.ended_at ?? r.started_at, r.time_zone), r.seq, r.photo_type)
        : null,
  };
  const valuesCell = (json: string, message: string | null): Cell => {
    if (json === '{}' || json === '') return null;
    try {
      const parsed = JSON.parse(json) as unknown;
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return json;
      return valuesInWords(texts, parsed as Parameters<typeof valuesInWords>[1], message) || null;
    } catch {
      return json;
    }
  };
  const cells = EXPORT_COLUMNS.map((c) => cell[c]);
  return (r) => cells.map((f) => f(r));
}

export const headerOf = (texts: ExportTexts): string[] => EXPORT_COLUMNS.map((c) => texts.columns[c]);
