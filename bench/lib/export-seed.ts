import Database from 'better-sqlite3';

/**
 * Seeds `npm run bench:export`'s reports straight into the server's SQLite database (the server runs
 * its migrations first; WAL lets this process write beside it): one building of the administrator's
 * organization, `reports` reports of `detailsPerReport` details each, with Japanese names and
 * messages (so the Shift_JIS export encodes real text) and a JSON value per detail.
 */
export function seedReports(
  file: string,
  opts: { organizationId: number; reports: number; detailsPerReport: number },
): { buildingId: number; details: number } {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  try {
    const now = new Date().toISOString();
    const building = db
      .prepare(
        `insert into buildings (organization_id, name, prefecture, city, address, postal_code, latitude, longitude,
           status, ip_restriction_enabled, created_at, updated_at)
         values (?, '本社ビル（ベンチ）', null, null, null, null, null, null, 1, 0, ?, ?)`,
      )
      .run(opts.organizationId, now, now);
    const buildingId = Number(building.lastInsertRowid);
    const report = db.prepare(
      `insert into reports (flow_run_id, organization_id, building_id, building_name, floor_id, floor_name, robot_id,
         robot_name, robot_serial, flow_id, flow_name, type, caller, caller_name, schedule_id, started_at, ended_at,
         result, error_code, abnormal_count, photo_count, detail_count, thumbnail_file_key)
       values (?, ?, ?, '本社ビル（ベンチ）', null, '3F 執務室', null, ?, ?, null, '夜間巡回ルート', 0, 'schedule',
         '毎晩の巡回', null, ?, ?, ?, null, ?, 0, ?, null)`,
    );
    const detail = db.prepare(
      `insert into report_details (report_id, seq, step_id, kind, type, result, started_at, ended_at, error_code,
         message, values_json, photo_file_key, photo_thumb_key, photo_width, photo_height, camera, floor_id, x, y)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, null, null, null, null, null, null, ?, ?)`,
    );
    const kinds = [
      ['moveToWaypoint', 0],
      ['takePhoto', 1],
      ['readMeter', 2],
      ['notification', 20],
    ] as const;
    const base = Date.parse('2026-10-01T12:00:00.000Z');
    let details = 0;
    db.transaction(() => {
      for (let r = 0; r < opts.reports; r++) {
        const started = base + r * 3_600_000;
        const abnormal = r % 7 === 0 ? 1 : 0;
        const id = Number(
          report.run(
            1_000_000 + r,
            opts.organizationId,
            buildingId,
            `巡回ロボ ${(r % 5) + 1} 号機`,
            `SN-${String(r % 5).padStart(4, '0')}`,
            new Date(started).toISOString(),
            new Date(started + opts.detailsPerReport * 6_000).toISOString(),
            abnormal ? 11 : 10,
            abnormal,
            opts.detailsPerReport,
          ).lastInsertRowid,
        );
        for (let s = 1; s <= opts.detailsPerReport; s++) {
          const [kind, type] = kinds[s % kinds.length]!;
          const at = started + s * 6_000;
          const bad = abnormal && s === 3;
          detail.run(
            id,
            s,
            `step-${s}`,
            kind,
            type,
            bad ? 1 : type === 2 ? 0 : 10,
            new Date(at).toISOString(),
            new Date(at + 4_000).toISOString(),
            bad ? 'F0003' : null,
            type === 20
              ? `第${s}地点に到着しました。異常はありません, "確認済み"`
              : bad
                ? '温度が閾値を超えました'
                : null,
            type === 2
              ? JSON.stringify({ 値: 20 + (s % 10) / 10, 単位: '℃' })
              : JSON.stringify({ waypoint: `地点${s}` }),
            (s % 40) * 0.5,
            (s % 25) * 0.4,
          );
          details += 1;
        }
      }
    })();
    return { buildingId, details };
  } finally {
    db.close();
  }
}
