import type { Report, ReportDetail, ReportDetailView, ReportTrack } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { FILTER_MAX_LENGTH, parseFilter } from '../../lib/filter.ts';
import { signFileUrl } from '../files/signed-url.ts';
import { reportFilter, reportRepo, type ReportDetailRow, type ReportRow } from './report-repo.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'config'>;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `where.abnormal` (true / false, also inside `and` / `or`) as `abnormalCount` (> 0 / = 0); any other
 * value is left as it is, so the filter parser refuses it (400).
 */
export function rewriteAbnormal(where: unknown): unknown {
  if (Array.isArray(where)) return where.map(rewriteAbnormal);
  if (!isPlainObject(where)) return where;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(where)) {
    if (k === 'abnormal' && (v === true || v === false || v === 'true' || v === 'false'))
      out.abnormalCount = v === true || v === 'true' ? { gt: 0 } : 0;
    else if (k === 'and' || k === 'or') out[k] = rewriteAbnormal(v);
    else out[k] = v;
  }
  return out;
}

function filterInput(raw: string | undefined): unknown {
  if (typeof raw !== 'string' || raw === '' || raw.length > FILTER_MAX_LENGTH) return raw;
  let input: unknown;
  try {
    input = JSON.parse(raw);
  } catch {
    return raw; // the parser answers the 400
  }
  if (!isPlainObject(input) || !('where' in input)) return raw;
  return { ...input, where: rewriteAbnormal(input.where) };
}

/** `<robot>-<yyyymmdd-hhmmss>-<seq>.<ext>` in the building's zone; characters a file name cannot hold become `_`. */
export function photoFileName(robotName: string, at: string, seq: number, timeZone: string, ext: string): string {
  let stamp = at.replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  try {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(new Date(at))
        .map((p) => [p.type, p.value]),
    );
    stamp = `${parts.year}${parts.month}${parts.day}-${parts.hour}${parts.minute}${parts.second}`;
  } catch {
    // an unknown zone: the UTC stamp above
  }
  const name = robotName.replace(/[\\/:*?"<>|\s]+/g, '_') || 'robot';
  return `${name}-${stamp}-${seq}.${ext}`;
}

const parseValues = (text: string): ReportDetail['values'] => {
  try {
    const v = JSON.parse(text) as unknown;
    return isPlainObject(v) ? (v as ReportDetail['values']) : {};
  } catch {
    return {};
  }
};

/** Reports (docs/api-reports.md): read within tenancy; written by the report writer. */
export function reportService(ctx: Ctx) {
  const { db, clock, config } = ctx;
  const repo = reportRepo(db);
  const sign = (key: string, now: Date) => signFileUrl(config.secretKey, config.apiBase, key, now);

  const toReport = (r: ReportRow, now: Date): Report => ({
    id: r.id,
    flowRunId: r.flow_run_id,
    flowId: r.flow_id,
    flowName: r.flow_name,
    type: (r.type === 1 || r.type === 30 ? r.type : 0) as Report['type'],
    organizationId: r.organization_id,
    buildingId: r.building_id,
    buildingName: r.building_name,
    floorId: r.floor_id,
    floorName: r.floor_name,
    robotId: r.robot_id,
    robotName: r.robot_name,
    robotSerial: r.robot_serial,
    caller: r.caller as Report['caller'],
    callerName: r.caller_name,
    scheduleId: r.schedule_id,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    result: r.result,
    errorCode: r.error_code,
    abnormalCount: r.abnormal_count,
    photoCount: r.photo_count,
    detailCount: r.detail_count,
    thumbnailUrl: r.thumbnail_file_key ? sign(r.thumbnail_file_key, now) : null,
  });

  const toDetail = (
    d: ReportDetailRow & { content_type: string | null },
    r: ReportRow,
    timeZone: string,
    now: Date,
  ): ReportDetail => ({
    id: d.id,
    seq: d.seq,
    stepId: d.step_id,
    kind: d.kind,
    type: d.type,
    result: d.result,
    startedAt: d.started_at,
    endedAt: d.ended_at,
    errorCode: d.error_code,
    message: d.message,
    values: parseValues(d.values_json),
    photo: d.photo_file_key
      ? {
          url: sign(d.photo_file_key, now),
          thumbnailUrl: sign(d.photo_thumb_key ?? d.photo_file_key, now),
          width: d.photo_width ?? 0,
          height: d.photo_height ?? 0,
          camera: d.camera,
          fileName: photoFileName(
            r.robot_name,
            d.ended_at ?? d.started_at,
            d.seq,
            timeZone,
            d.content_type === 'image/jpeg' ? 'jpg' : 'png',
          ),
        }
      : null,
    floorId: d.floor_id,
    x: d.x,
    y: d.y,
  });

  return {
    async list(p: Principal, rawFilter: string | undefined): Promise<{ items: Report[]; total: number }> {
      const f = parseFilter(filterInput(rawFilter), reportFilter);
      if (f.fields || f.include.length > 0) {
        throw new AppError('BAD_FILTER', 'Invalid filter: fields and include are not supported for reports', [
          { path: f.fields ? 'fields' : 'include', message: 'not supported here; every report is answered whole' },
        ]);
      }
      const { rows, total } = await repo.page(p, f);
      const now = clock();
      return { items: rows.map((r) => toReport(r, now)), total };
    },

    async get(p: Principal, id: number): Promise<ReportDetailView> {
      const r = await repo.inScope(p, id);
      if (!r) throw notFound('Report');
      const [details, tracks, zone] = await Promise.all([
        repo.details(id),
        repo.tracks(id),
        repo.timeZone(r.building_id),
      ]);
      const timeZone = zone ?? 'Asia/Tokyo';
      const now = clock();
      const floorNames = new Map<number, string>();
      if (r.floor_id !== null) floorNames.set(r.floor_id, r.floor_name);
      return {
        ...toReport(r, now),
        details: details.map((d) => toDetail(d, r, timeZone, now)),
        tracks: tracks.map((t): ReportTrack => ({
          floorId: t.floor_id,
          floorName: t.floor_name ?? floorNames.get(t.floor_id) ?? '',
          points: JSON.parse(t.points_json) as Array<[number, number]>,
        })),
        timeZone,
      };
    },
  };
}
