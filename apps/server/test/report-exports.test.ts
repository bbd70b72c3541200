import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJobSchema, exportTemplateSchema, operatorSchema, type ExportJob, type InitData } from '@portal/contract';
import type { ExportWorker } from '../src/modules/report-exports/export-worker.ts';
import { createTestApp, errorOf, type TestApp } from './helpers.ts';
import { makeTemplate, parseCsv, unzip, xlsxSheet } from './export-fixtures.ts';

/**
 * Report exports and export templates (docs/api-reports.md "Exports"): the export permission, "no
 * target data", jobs run by the worker to a file whose content is checked, a job left by a dead
 * server taken over and finished once, templates (validation, a filled workbook that keeps the
 * customer's other parts), tenancy, retention and malformed input. Reports are seeded straight into
 * the tables; the worker's timer is off and the test runs its rounds (`tick`, `idle`).
 */
let t: TestApp;
let demo: { orgId: number; buildingId: number; otherBuildingId: number };
let other: { orgId: number; buildingId: number; admin: string };
let general: string;
let generalId: number;
let orgAdmin: string;
let sys: string;

const worker = () => (t.app as unknown as { reportExports: ExportWorker }).reportExports;
const exportsDir = () => join(t.config.dataDir, 'exports');

const otherData: InitData = {
  organization: { name: 'Other Org', type: 0, labOption: false },
  buildings: [{ name: 'Other Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
  operators: [
    {
      loginId: 'admin@other.example',
      firstName: 'A',
      lastName: 'Other',
      password: 'Other-Admin-2026',
      type: 2,
      building: 0,
    },
  ],
};

/** Seeds reports with `details` details each, straight into the tables. Answers the report ids. */
async function seedReports(opts: {
  organizationId: number;
  buildingId: number;
  buildingName: string;
  reports: number;
  details: number;
  startedAt?: string;
  result?: number;
}): Promise<number[]> {
  const db = t.db.kysely;
  const ids: number[] = [];
  const base = Date.parse(opts.startedAt ?? '2026-11-20T01:00:00.000Z');
  for (let i = 0; i < opts.reports; i++) {
    const started = new Date(base + i * 3600_000).toISOString();
    const row = await db
      .insertInto('reports')
      .values({
        flow_run_id: Math.floor(Math.random() * 1e9),
        organization_id: opts.organizationId,
        building_id: opts.buildingId,
        building_name: opts.buildingName,
        floor_id: null,
        floor_name: '1F',
        robot_id: null,
        robot_name: '巡回ロボ',
        robot_serial: 'SN-001',
        flow_id: null,
        flow_name: '夜間巡回',
        type: 0,
        caller: 'operator',
        caller_name: '山田 太郎',
        schedule_id: null,
        started_at: started,
        ended_at: new Date(base + i * 3600_000 + 600_000).toISOString(),
        result: opts.result ?? 10,
        error_code: null,
        abnormal_count: 0,
        photo_count: 0,
        detail_count: opts.details,
        thumbnail_file_key: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(row.id);
    for (let s = 1; s <= opts.details; s++) {
      await db
        .insertInto('report_details')
        .values({
          report_id: row.id,
          seq: s,
          step_id: `s${s}`,
          kind: 'moveToWaypoint',
          type: 0,
          result: 10,
          started_at: new Date(Date.parse(started) + s * 1000).toISOString(),
          ended_at: new Date(Date.parse(started) + s * 1000 + 500).toISOString(),
          error_code: null,
          message: s === 1 ? '受付前, "到着"' : null,
          values_json: s === 1 ? '{"waypointId":3,"waypointName":"受付","level":5,"extra":"x"}' : '{}',
          photo_file_key: null,
          photo_thumb_key: null,
          photo_width: null,
          photo_height: null,
          camera: null,
          floor_id: null,
          x: null,
          y: null,
        })
        .execute();
    }
  }
  return ids;
}

const post = (authorization: string, body: unknown, lang = 'ja') =>
  t.inject({
    method: 'POST',
    url: '/api/report-exports',
    headers: { authorization, 'accept-language': lang },
    payload: body as Record<string, unknown>,
  });

async function exportDone(authorization: string, body: unknown, lang = 'ja'): Promise<ExportJob> {
  const res = await post(authorization, body, lang);
  expect(res.statusCode, res.body).toBe(202);
  const job = exportJobSchema.parse(res.json());
  await worker().idle();
  const done = exportJobSchema.parse((await t.call('GET', `/report-exports/${job.id}`, authorization)).json());
  expect(done.status, JSON.stringify(done)).toBe('done');
  return done;
}

const download = (authorization: string, id: number) =>
  t.inject({ method: 'GET', url: `/api/report-exports/${id}/file`, headers: { authorization } });

const jobCount = async () =>
  Number(
    (
      await t.db.kysely
        .selectFrom('report_exports')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

function multipart(fields: Record<string, string>, file?: { bytes: Buffer; name: string }) {
  const boundary = '----portal-export-boundary';
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const uploadTemplate = (
  authorization: string,
  fields: Record<string, string>,
  file?: { bytes: Buffer; name: string },
) => {
  const body = multipart(fields, file);
  return t.inject({
    method: 'POST',
    url: '/api/export-templates',
    headers: { authorization, ...body.headers },
    payload: body.payload,
  });
};

beforeAll(async () => {
  t = await createTestApp({ EXPORT_TICK_MS: '0' });
  sys = (await t.as('sysadmin@demo.example')).authorization;
  orgAdmin = (await t.as('orgadmin@demo.example')).authorization;
  const g = await t.as('operator@demo.example');
  general = g.authorization;
  generalId = g.id;
  const op = await t.db.kysely
    .selectFrom('operators')
    .select(['organization_id', 'building_id'])
    .where('id', '=', generalId)
    .executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  const second = await t.db.kysely
    .insertInto('buildings')
    .values({
      organization_id: op.organization_id,
      name: 'Annex',
      prefecture: null,
      city: null,
      address: null,
      postal_code: null,
      latitude: null,
      longitude: null,
      status: 1,
      ip_restriction_enabled: 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  demo = { orgId: op.organization_id, buildingId: op.building_id!, otherBuildingId: second.id };
  const imported = await t.inject({
    method: 'POST',
    url: '/api/init-data',
    headers: { authorization: sys },
    payload: otherData,
  });
  expect(imported.statusCode).toBe(201);
  const orgId = imported.json<{ organizationId: number }>().organizationId;
  const b = await t.db.kysely
    .selectFrom('buildings')
    .select('id')
    .where('organization_id', '=', orgId)
    .executeTakeFirstOrThrow();
  const login = await t.login('admin@other.example', 'Other-Admin-2026');
  other = { orgId, buildingId: b.id, admin: `Bearer ${login.json<{ token: string }>().token}` };
  // Demo Tower: 3 reports of 4 details in November; the annex and the other organization: 1 each.
  await seedReports({
    organizationId: demo.orgId,
    buildingId: demo.buildingId,
    buildingName: '本社ビル',
    reports: 3,
    details: 4,
  });
  await seedReports({
    organizationId: demo.orgId,
    buildingId: demo.otherBuildingId,
    buildingName: 'Annex',
    reports: 1,
    details: 2,
  });
  await seedReports({
    organizationId: orgId,
    buildingId: b.id,
    buildingName: 'Other Building',
    reports: 1,
    details: 5,
  });
});
afterAll(async () => {
  await t?.close();
});

describe('export permission', () => {
  it('refuses a restricted general operator (403 EXPORT_FORBIDDEN, nothing recorded); administrators always may', async () => {
    const current = operatorSchema.parse((await t.call('GET', `/operators/${generalId}`, orgAdmin)).json());
    expect(current.exportRestricted).toBe(false);
    const restrict = await t.call('PATCH', `/operators/${generalId}`, orgAdmin, {
      loginId: current.loginId,
      firstName: current.firstName,
      lastName: current.lastName,
      type: current.type,
      organizationId: current.organizationId,
      buildingId: current.buildingId,
      flowEditRestricted: current.flowEditRestricted,
      exportRestricted: true,
      updatedAt: current.updatedAt,
    });
    expect(restrict.statusCode, restrict.body).toBe(200);
    expect(operatorSchema.parse(restrict.json()).exportRestricted).toBe(true);

    const before = await jobCount();
    const refused = await post(general, { format: 'csv', encoding: 'utf-8' });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).code).toBe('EXPORT_FORBIDDEN');
    expect(await jobCount()).toBe(before);

    // Administrators may, whatever the flag; an update without the field keeps it.
    const admin = await post(orgAdmin, {
      format: 'csv',
      encoding: 'utf-8',
      selection: { buildingId: demo.buildingId },
    });
    expect(admin.statusCode).toBe(202);
    await worker().idle();
    const kept = operatorSchema.parse((await t.call('GET', `/operators/${generalId}`, orgAdmin)).json());
    const again = await t.call('PATCH', `/operators/${generalId}`, orgAdmin, {
      loginId: kept.loginId,
      firstName: kept.firstName,
      lastName: kept.lastName,
      type: kept.type,
      organizationId: kept.organizationId,
      buildingId: kept.buildingId,
      flowEditRestricted: kept.flowEditRestricted,
      updatedAt: kept.updatedAt,
    });
    expect(operatorSchema.parse(again.json()).exportRestricted).toBe(true);

    // Only general operators can be restricted.
    const orgAdminRow = operatorSchema.parse(
      (await t.call('GET', `/operators/${(await t.as('manager@demo.example')).id}`, orgAdmin)).json(),
    );
    const bad = await t.call('PATCH', `/operators/${orgAdminRow.id}`, orgAdmin, {
      loginId: orgAdminRow.loginId,
      firstName: orgAdminRow.firstName,
      lastName: orgAdminRow.lastName,
      type: orgAdminRow.type,
      organizationId: orgAdminRow.organizationId,
      buildingId: orgAdminRow.buildingId,
      flowEditRestricted: false,
      exportRestricted: true,
      updatedAt: orgAdminRow.updatedAt,
    });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).details).toEqual([
      expect.objectContaining({ path: 'exportRestricted', message: 'validation.exportOnlyGeneral' }),
    ]);

    // Lifted again: the general operator exports.
    const lift = await t.call('PATCH', `/operators/${generalId}`, orgAdmin, {
      ...{
        loginId: kept.loginId,
        firstName: kept.firstName,
        lastName: kept.lastName,
        type: kept.type,
        organizationId: kept.organizationId,
        buildingId: kept.buildingId,
        flowEditRestricted: kept.flowEditRestricted,
      },
      exportRestricted: false,
      updatedAt: operatorSchema.parse(again.json()).updatedAt,
    });
    expect(lift.statusCode).toBe(200);
    expect((await post(general, { format: 'csv', encoding: 'utf-8' })).statusCode).toBe(202);
    await worker().idle();
  });

  it('answers NO_TARGET_DATA (404) for a selection without rows and records nothing', async () => {
    const before = await jobCount();
    const res = await post(orgAdmin, {
      format: 'xlsx',
      encoding: 'utf-8',
      selection: { from: '2020-01-01T00:00:00+09:00', to: '2020-02-01T00:00:00+09:00' },
    });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).code).toBe('NO_TARGET_DATA');
    // Another building than a general operator's own selects nothing either.
    const foreign = await post(general, {
      format: 'csv',
      encoding: 'utf-8',
      selection: { buildingId: demo.otherBuildingId },
    });
    expect(errorOf(foreign).code).toBe('NO_TARGET_DATA');
    expect(await jobCount()).toBe(before);
  });
});

describe('export jobs', () => {
  it('writes a UTF-8 CSV of the selected details: header in the exporter’s language, times in the building’s zone, codes as words', async () => {
    const job = await exportDone(general, { format: 'csv', encoding: 'utf-8' });
    // Only the general operator's building: 3 reports × 4 details.
    expect(job).toMatchObject({ rowCount: 12, rowsDone: 12, format: 'csv', exporterName: '山田 太郎', error: null });
    expect(job.expiresAt).not.toBeNull();
    const file = await download(general, job.id);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('text/csv');
    expect(file.headers['content-disposition']).toContain(job.fileName);
    expect([...file.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(file.rawPayload.subarray(3).toString('utf8'));
    expect(rows).toHaveLength(13);
    expect(rows[0]!.slice(0, 4)).toEqual(['レポートID', 'レポート種別', 'ビル', 'フロア']);
    const first = rows[1]!;
    expect(first[1]).toBe('巡回');
    expect(first[2]).toBe('本社ビル');
    expect(first[7]).toBe('オペレーター (山田 太郎)');
    // 01:00 UTC is 10:00 in Asia/Tokyo.
    expect(first[8]).toBe('2026-11-20 10:00:00');
    expect(first[10]).toBe('完了');
    expect(first[18]).toBe('受付前, "到着"');
    // The values in words: a name for its id, known keys labelled, unknown keys as they are.
    expect(first[19]).toBe('地点: 受付, レベル: 警告, extra: x');

    const en = await exportDone(general, { format: 'csv', encoding: 'utf-8' }, 'en');
    const enRows = parseCsv((await download(general, en.id)).rawPayload.subarray(3).toString('utf8'));
    expect(enRows[0]!.slice(0, 3)).toEqual(['Report ID', 'Report type', 'Building']);
    expect(enRows[1]![10]).toBe('Complete');
    expect(enRows[1]![19]).toBe('Waypoint: 受付, Level: Warning, extra: x');
  });

  it('writes Shift_JIS: the Japanese text round-trips', async () => {
    const job = await exportDone(general, { format: 'csv', encoding: 'shift-jis' });
    const file = await download(general, job.id);
    expect(file.headers['content-type']).toContain('shift_jis');
    const rows = parseCsv(iconv.decode(file.rawPayload, 'Shift_JIS'));
    expect(rows[0]![0]).toBe('レポートID');
    expect(rows[1]![2]).toBe('本社ビル');
    expect(rows[1]![18]).toBe('受付前, "到着"');
  });

  it('writes an Excel workbook', async () => {
    const job = await exportDone(orgAdmin, {
      format: 'xlsx',
      encoding: 'utf-8',
      selection: { buildingId: demo.otherBuildingId },
    });
    const file = await download(orgAdmin, job.id);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    const rows = xlsxSheet(file.rawPayload, 'RawData');
    expect(rows).toHaveLength(3);
    expect(rows[1]![0]).toEqual(expect.any(Number));
    expect(rows[1]![2]).toBe('Annex');
  });

  it('answers 409 while the file is written and 404 for another tenant', async () => {
    const id = (
      await t.db.kysely
        .insertInto('report_exports')
        .values(jobRow({ status: 'queued', organization_id: demo.orgId, building_id: demo.buildingId }))
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    expect((await download(orgAdmin, id)).statusCode).toBe(409);
    expect((await t.call('GET', `/report-exports/${id}`, other.admin)).statusCode).toBe(404);
    expect((await download(other.admin, id)).statusCode).toBe(404);
    await worker().tick();
    await worker().idle();
    expect((await download(orgAdmin, id)).statusCode).toBe(200);
  });

  it('takes over a job whose server died (expired lease) and finishes it once, from the start', async () => {
    const stale = `dead-${Date.now()}.csv`;
    writeFileSync(join(exportsDir(), stale), 'half a file');
    const past = new Date(Date.now() - 120_000).toISOString();
    const id = (
      await t.db.kysely
        .insertInto('report_exports')
        .values(
          jobRow({
            status: 'running',
            organization_id: demo.orgId,
            building_id: demo.buildingId,
            rows_done: 5,
            lease_owner: 'a-dead-server',
            lease_until: past,
            file_path: stale,
            attempts: 1,
          }),
        )
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    // A job another live server holds is left alone.
    const heldId = (
      await t.db.kysely
        .insertInto('report_exports')
        .values(
          jobRow({
            status: 'running',
            organization_id: demo.orgId,
            building_id: demo.buildingId,
            lease_owner: 'a-live-server',
            lease_until: new Date(Date.now() + 600_000).toISOString(),
          }),
        )
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await worker().tick();
    await worker().idle();
    await worker().tick();
    await worker().idle();
    const row = await t.db.kysely
      .selectFrom('report_exports')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'done', rows_done: 12, row_count: 12, attempts: 2, lease_owner: null });
    expect(existsSync(join(exportsDir(), stale))).toBe(false);
    const rows = parseCsv((await download(orgAdmin, id)).rawPayload.subarray(3).toString('utf8'));
    expect(rows).toHaveLength(13);
    expect(new Set(rows.slice(1).map((r) => `${r[0]}-${r[11]}`)).size).toBe(12);
    const held = await t.db.kysely
      .selectFrom('report_exports')
      .selectAll()
      .where('id', '=', heldId)
      .executeTakeFirstOrThrow();
    expect(held).toMatchObject({ status: 'running', lease_owner: 'a-live-server', attempts: 0 });
    await t.db.kysely.deleteFrom('report_exports').where('id', '=', heldId).execute();
  });

  it('deletes the file after the retention period and marks the export expired', async () => {
    const job = await exportDone(orgAdmin, {
      format: 'csv',
      encoding: 'utf-8',
      selection: { buildingId: demo.buildingId },
    });
    const row = await t.db.kysely
      .selectFrom('report_exports')
      .select('file_path')
      .where('id', '=', job.id)
      .executeTakeFirstOrThrow();
    expect(existsSync(join(exportsDir(), row.file_path!))).toBe(true);
    t.advance(31 * 24 * 60);
    try {
      await worker().tick();
      await worker().idle();
      // The sessions of a month ago have ended too.
      const admin = (await t.as('orgadmin@demo.example')).authorization;
      const expired = exportJobSchema.parse((await t.call('GET', `/report-exports/${job.id}`, admin)).json());
      expect(expired.status).toBe('expired');
      expect((await download(admin, job.id)).statusCode).toBe(404);
      expect(readdirSync(exportsDir())).not.toContain(row.file_path);
    } finally {
      t.advance(-31 * 24 * 60);
    }
  });

  it('lists the history within tenancy', async () => {
    const mine = await t.call('GET', '/report-exports', general);
    expect(mine.statusCode).toBe(200);
    const items = mine.json<ExportJob[]>();
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((j) => j.organizationId === demo.orgId)).toBe(true);
    const theirs = await t.call('GET', '/report-exports', other.admin);
    expect(theirs.json<ExportJob[]>()).toEqual([]);
    // The annex export of the organization administrator is not the general operator's to see.
    const annex = await exportDone(orgAdmin, {
      format: 'csv',
      encoding: 'utf-8',
      selection: { buildingId: demo.otherBuildingId },
    });
    expect((await t.call('GET', `/report-exports/${annex.id}`, general)).statusCode).toBe(404);
    // A system administrator's export of another organization: 404 for the demo organization.
    const foreign = await exportDone(sys, {
      format: 'csv',
      encoding: 'utf-8',
      selection: { buildingId: other.buildingId },
    });
    expect(foreign.rowCount).toBe(5);
    expect((await t.call('GET', `/report-exports/${foreign.id}`, orgAdmin)).statusCode).toBe(404);
    expect((await t.call('GET', `/report-exports/${foreign.id}`, other.admin)).statusCode).toBe(200);
  });
});

describe('export templates', () => {
  it('refuses a workbook without a raw data sheet, a file that is not .xlsx, and a general operator', async () => {
    const noRaw = await uploadTemplate(
      orgAdmin,
      { name: 'No raw' },
      { bytes: makeTemplate({ rawSheetName: 'Data' }), name: 'a.xlsx' },
    );
    expect(noRaw.statusCode).toBe(400);
    expect(errorOf(noRaw).details).toEqual([{ path: 'file', message: 'reportValidation.rawSheetMissing' }]);
    const text = await uploadTemplate(orgAdmin, { name: 'Text' }, { bytes: Buffer.from('a,b\n1,2\n'), name: 'a.xlsx' });
    expect(errorOf(text).details).toEqual([{ path: 'file', message: 'reportValidation.notXlsx' }]);
    const nothing = await uploadTemplate(orgAdmin, { name: '' });
    expect(nothing.statusCode).toBe(400);
    expect(errorOf(nothing).details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'name', message: 'validation.required' }),
        { path: 'file', message: 'validation.required' },
      ]),
    );
    const json = await t.call('POST', '/export-templates', orgAdmin, { name: 'x' });
    expect(json.statusCode).toBeGreaterThanOrEqual(400);
    expect(json.statusCode).toBeLessThan(500);
    const asGeneral = await uploadTemplate(general, { name: 'G' }, { bytes: makeTemplate(), name: 'a.xlsx' });
    expect(asGeneral.statusCode).toBe(403);
  });

  it('fills a template: the other sheets, formulas and chart parts are kept byte for byte; deleting it keeps its name on the export', async () => {
    const bytes = makeTemplate();
    const created = await uploadTemplate(
      orgAdmin,
      { name: '月次報告', description: '本社向け' },
      { bytes, name: '月次報告.xlsx' },
    );
    expect(created.statusCode, created.body).toBe(201);
    const template = exportTemplateSchema.parse(created.json());
    expect(template).toMatchObject({
      name: '月次報告',
      rawSheetName: 'RawData',
      sheetNames: ['Summary', 'RawData'],
      fileSize: bytes.length,
    });
    expect((await t.call('GET', `/export-templates/${template.id}`, general)).statusCode).toBe(200);
    expect((await t.call('GET', `/export-templates/${template.id}`, other.admin)).statusCode).toBe(404);
    const original = await t.inject({
      method: 'GET',
      url: `/api/export-templates/${template.id}/file`,
      headers: { authorization: general },
    });
    expect(original.rawPayload.equals(bytes)).toBe(true);

    // Another organization's template cannot be used.
    const foreignUse = await post(other.admin, { format: 'xlsx', encoding: 'utf-8', templateId: template.id });
    expect(foreignUse.statusCode).toBe(400);
    expect(errorOf(foreignUse).details).toEqual([expect.objectContaining({ path: 'templateId' })]);

    const job = await exportDone(general, { format: 'xlsx', encoding: 'utf-8', templateId: template.id });
    expect(job.templateName).toBe('月次報告');
    const file = (await download(general, job.id)).rawPayload;
    const before = unzip(bytes);
    const after = unzip(file);
    for (const name of [
      'xl/worksheets/sheet1.xml',
      'xl/charts/chart1.xml',
      'xl/drawings/drawing1.xml',
      'xl/sharedStrings.xml',
      'xl/styles.xml',
    ])
      expect(after.raw.get(name), name).toEqual(before.raw.get(name));
    expect(after.parts.get('xl/workbook.xml')!.toString()).toContain('fullCalcOnLoad="1"');
    const raw = xlsxSheet(file, 'RawData');
    expect(raw).toHaveLength(13);
    expect(raw[0]![0]).toBe('レポートID');
    expect(raw[1]![2]).toBe('本社ビル');

    expect((await t.call('DELETE', `/export-templates/${template.id}`, general)).statusCode).toBe(403);
    expect((await t.call('DELETE', `/export-templates/${template.id}`, orgAdmin)).statusCode).toBe(204);
    expect((await t.call('GET', `/export-templates/${template.id}`, orgAdmin)).statusCode).toBe(404);
    const kept = exportJobSchema.parse((await t.call('GET', `/report-exports/${job.id}`, general)).json());
    expect(kept).toMatchObject({ templateId: null, templateName: '月次報告', status: 'done' });
    // Audited: the upload, the export and the deletion, with the names.
    const audit = await t.db.kysely
      .selectFrom('audit_logs')
      .select(['action', 'target_name'])
      .where('action', 'in', ['exportTemplate.create', 'exportTemplate.delete', 'reportExport.create'])
      .where('target_id', 'in', [String(template.id), String(job.id)])
      .execute();
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: 'exportTemplate.create', target_name: '月次報告' },
        { action: 'exportTemplate.delete', target_name: '月次報告' },
        { action: 'reportExport.create', target_name: job.fileName },
      ]),
    );
    expect((await download(general, job.id)).statusCode).toBe(200);
  });
});

describe('malformed input', () => {
  it.each([
    ['an unknown format', { format: 'pdf', encoding: 'utf-8' }],
    ['no encoding', { format: 'csv' }],
    ['a template with CSV', { format: 'csv', encoding: 'utf-8', templateId: 1 }],
    ['a bad date', { format: 'csv', encoding: 'utf-8', selection: { from: 'yesterday' } }],
    ['an unknown type', { format: 'csv', encoding: 'utf-8', selection: { type: 5 } }],
    [
      'to before from',
      { format: 'csv', encoding: 'utf-8', selection: { from: '2026-11-02T00:00:00Z', to: '2026-11-01T00:00:00Z' } },
    ],
    ['a string id', { format: 'csv', encoding: 'utf-8', selection: { buildingId: 'abc' } }],
    ['an array', [1, 2]],
    ['a missing template', { format: 'xlsx', encoding: 'utf-8', templateId: 999999 }],
  ])('answers 400 for %s', async (_, body) => {
    const res = await post(orgAdmin, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(errorOf(res).code).toBe('VALIDATION_FAILED');
  });

  it('answers 400 for bad ids and filters, never 500', async () => {
    for (const url of [
      '/report-exports/abc',
      '/report-exports/0/file',
      '/export-templates/-1',
      '/report-exports?filter=%7Bbad',
    ])
      expect((await t.call('GET', url, orgAdmin)).statusCode, url).toBe(400);
    const unknown = await t.call(
      'GET',
      `/report-exports?filter=${encodeURIComponent('{"where":{"secret":1}}')}`,
      orgAdmin,
    );
    expect(unknown.statusCode).toBe(400);
  });
});

/** A job row for direct inserts (a selection of all the exporter's organization, 12 rows up to now). */
function jobRow(over: Record<string, unknown>) {
  return {
    organization_id: demo.orgId,
    building_id: null,
    scope_organization_id: demo.orgId,
    scope_building_id: demo.buildingId,
    format: 'csv',
    encoding: 'utf-8',
    language: 'ja',
    template_id: null,
    template_name: null,
    selection: '{}',
    status: 'queued',
    rows_done: 0,
    row_count: 12,
    max_detail_id: 1_000_000,
    exporter_id: null,
    exporter_name: 'test',
    file_name: 'reports.csv',
    file_path: null,
    file_size: null,
    error: null,
    attempts: 0,
    lease_owner: null,
    lease_until: null,
    created_at: new Date().toISOString(),
    started_at: null,
    finished_at: null,
    expires_at: null,
    ...over,
  } as never;
}
