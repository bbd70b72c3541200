/**
 * `npm run bench:export` (issue 16): 100,000 report detail rows exported to CSV in UTF-8, to CSV in
 * Shift_JIS and to Excel with a template, one after the other, on one server (SQLite, its default
 * configuration, EXPORT_TICK_MS 1000). Figures per export:
 *
 * - time to the finished file: from the POST to the job reading `done` (polled every 100 ms);
 * - peak server RSS during the export (VmHWM of /proc/<pid>/status, reset before each export through
 *   /proc/<pid>/clear_refs where the kernel allows it, else the peak so far), goal < 250 MB;
 * - p99 of `GET /api/buildings` (autocannon, 4 connections) while the export runs, and the same
 *   before any export for comparison (the server must stay responsive);
 * - the file's size; the file is downloaded and its rows counted (a wrong count fails the bench).
 *
 * The server starts with a temporary DATA_DIR on free ports (no demo data, no simulated robots); the
 * reports are written straight into its SQLite database (bench/lib/export-seed.ts), the template is
 * the tests' customer workbook (apps/server/test/export-fixtures.ts). The server is stopped by PID at
 * the end, on errors and on Ctrl-C. Options (environment): EXPORT_REPORTS (1000) and
 * EXPORT_DETAILS (100 per report). Results: bench/results/export.json.
 */
import autocannon from 'autocannon';
import { writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { authOps, exportJobSchema, exportTemplateSchema, type ExportJob } from '@portal/contract';
import { makeTemplate, parseCsv, unzip } from '../apps/server/test/export-fixtures.ts';
import { processMemory } from './lib/fleet-measure.ts';
import {
  BenchError,
  benchApi,
  freePort,
  rememberTempDir,
  serverLog,
  startServer,
  stopAll,
  stopChild,
  waitForHealth,
} from './lib/fleet-server.ts';
import { seedReports } from './lib/export-seed.ts';
import { round, writeResults, type Figure } from './lib/results.ts';

const ADMIN = { loginId: 'bench-admin@example.com', loginPw: 'Bench-Pass-2024!' };
const REPORTS = Number(process.env.EXPORT_REPORTS ?? 1000);
const DETAILS = Number(process.env.EXPORT_DETAILS ?? 100);
const RSS_GOAL_MB = 250;
const CONNECTIONS = 4;
const MB = 1024 * 1024;

process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));

function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Latency of GET /api/buildings under load until `stop` is called; answers autocannon's result. */
function loadBuildings(base: string, token: string) {
  let instance: autocannon.Instance | null = null;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: `${base}/api/buildings`,
        connections: CONNECTIONS,
        duration: 600,
        headers: { authorization: `Bearer ${token}`, 'accept-language': 'ja' },
      },
      (err: unknown, result: autocannon.Result) =>
        err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(result),
    );
  });
  return { stop: () => (instance as autocannon.Instance | null)?.stop(), done };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-export-'));
  rememberTempDir(dataDir);
  const port = await freePort();
  const server = startServer({ port, mqttPort: await freePort(), dataDir, admin: ADMIN });
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(base, server);
  const pid = server.pid!;
  const api = benchApi(base);
  const session = await api.call(authOps.login, { body: ADMIN });
  if (!('organizationId' in session)) throw new BenchError('the administrator’s login asks for a code');
  const token = session.token;

  const seeded = seedReports(path.join(dataDir, 'portal.db'), {
    organizationId: session.organizationId,
    reports: REPORTS,
    detailsPerReport: DETAILS,
  });
  console.log(`seeded ${seeded.details} report details in building ${seeded.buildingId}`);

  const headers = { authorization: `Bearer ${token}`, 'accept-language': 'ja' };
  const form = new FormData();
  form.set('name', 'ベンチ用テンプレート');
  form.set('file', new Blob([new Uint8Array(makeTemplate())]), 'template.xlsx');
  const uploaded = await fetch(`${base}/api/export-templates`, { method: 'POST', headers, body: form });
  if (uploaded.status !== 201) throw new BenchError(`template upload: ${uploaded.status} ${await uploaded.text()}`);
  const template = exportTemplateSchema.parse(await uploaded.json());

  const figures: Figure[] = [];
  const idle = processMemory(pid);
  figures.push({
    name: 'server RSS before the exports (seeded, idle)',
    value: round((idle?.rss ?? Number.NaN) / MB),
    unit: 'MB',
  });
  const loadAtStart = os.loadavg()[0]!;
  // Responsiveness without an export, for comparison.
  const quiet = loadBuildings(base, token);
  await new Promise((r) => setTimeout(r, 5000));
  quiet.stop();
  const quietResult = await quiet.done;
  figures.push({ name: 'GET /api/buildings p99, no export', value: quietResult.latency.p99, unit: 'ms' });

  const scenarios = [
    { label: 'CSV UTF-8', body: { format: 'csv', encoding: 'utf-8' } },
    { label: 'CSV Shift_JIS', body: { format: 'csv', encoding: 'shift-jis' } },
    { label: 'Excel with template', body: { format: 'xlsx', encoding: 'utf-8', templateId: template.id } },
  ] as const;
  for (const s of scenarios) {
    const exact = resetPeak(pid);
    const load = loadBuildings(base, token);
    await new Promise((r) => setTimeout(r, 300));
    const started = performance.now();
    const res = await fetch(`${base}/api/report-exports`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ ...s.body, selection: { buildingId: seeded.buildingId } }),
    });
    if (res.status !== 202) throw new BenchError(`${s.label}: ${res.status} ${await res.text()}`);
    let job: ExportJob = exportJobSchema.parse(await res.json());
    let rssMax = 0;
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      rssMax = Math.max(rssMax, processMemory(pid)?.rss ?? 0);
      const r = await fetch(`${base}/api/report-exports/${job.id}`, { headers });
      job = exportJobSchema.parse(await r.json());
      if (job.status === 'done' || job.status === 'fail') break;
      if (performance.now() - started > 15 * 60_000) throw new BenchError(`${s.label}: not done after 15 min`);
    }
    const seconds = (performance.now() - started) / 1000;
    load.stop();
    const loaded = await load.done;
    if (job.status !== 'done') throw new BenchError(`${s.label}: ${job.error}`);
    const hwm = processMemory(pid)?.hwm ?? Number.NaN;
    const peak = Math.max(hwm, rssMax) / MB;

    // The file, checked: every row is there.
    const file = Buffer.from(
      await (await fetch(`${base}/api/report-exports/${job.id}/file`, { headers })).arrayBuffer(),
    );
    let rows: number;
    if (s.body.format === 'csv') {
      const text =
        s.body.encoding === 'utf-8' ? file.subarray(3).toString('utf8') : new TextDecoder('shift_jis').decode(file);
      const records = parseCsv(text);
      if (!records[1]?.[2]?.startsWith('本社ビル'))
        throw new BenchError(`${s.label}: the Japanese text did not round-trip`);
      rows = records.length - 1;
    } else {
      const sheet = unzip(file).parts.get('xl/worksheets/sheet2.xml')!.toString('utf8');
      rows = (sheet.match(/<row /g) ?? []).length - 1;
    }
    if (rows !== seeded.details || job.rowCount !== seeded.details)
      throw new BenchError(`${s.label}: ${rows} rows in the file, ${job.rowCount} counted, ${seeded.details} seeded`);

    console.log(
      `${s.label}: ${seconds.toFixed(1)} s, ${(file.length / MB).toFixed(1)} MB, peak RSS ${peak.toFixed(0)} MB${exact ? '' : ' (peak so far)'}, buildings p99 ${loaded.latency.p99} ms (${loaded.requests.total} requests)`,
    );
    figures.push(
      { name: `${s.label}: time to finished file`, value: round(seconds), unit: 's', row: s.label, column: 'file s' },
      {
        name: `${s.label}: peak server RSS`,
        value: round(peak),
        unit: 'MB',
        goal: `< ${RSS_GOAL_MB} MB`,
        met: peak < RSS_GOAL_MB,
        row: s.label,
        column: 'peak RSS MB',
      },
      {
        name: `${s.label}: GET /api/buildings p99 during the export`,
        value: loaded.latency.p99,
        unit: 'ms',
        row: s.label,
        column: 'buildings p99 ms',
      },
      { name: `${s.label}: file size`, value: round(file.length / MB), unit: 'MB', row: s.label, column: 'file MB' },
    );
  }
  figures.push(
    { name: 'report detail rows', value: seeded.details, unit: 'rows' },
    { name: 'machine load average (1 min) at the start', value: round(loadAtStart), unit: '' },
    { name: 'machine load average (1 min) at the end', value: round(os.loadavg()[0]!), unit: '' },
  );
  writeResults('export', figures);
  await stopChild(server);
}

main()
  .catch((err: unknown) => {
    console.error(err instanceof BenchError ? err.message : err);
    console.error(serverLog.slice(-20).join('\n'));
    process.exitCode = 1;
  })
  .finally(() => stopAll());
