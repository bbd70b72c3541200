import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import {
  EXPORT_RETENTION_DAYS,
  reportSelectionSchema,
  type ExportEncoding,
  type ReportSelection,
} from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Lang } from '../../lib/language.ts';
import type { Clock } from '../../lib/time.ts';
import type { FileStore } from '../../services/file-store.ts';
import { csvWriter } from './csv-writer.ts';
import { exportRepo, type ReportExportRow } from './export-repo.ts';
import { headerOf, rowMapper } from './export-rows.ts';
import { exportTexts } from './export-texts.ts';
import type { ExportFileWriter } from './file-writer.ts';
import { TemplateProblem } from './template-reader.ts';
import { templateXlsxWriter, xlsxWriter } from './xlsx-writer.ts';
import { ZipTooLargeError } from './zip.ts';

export interface ExportWorkerDeps {
  db: Kysely<Database>;
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'error' | 'warn' | 'info'>;
  fileStore: Pick<FileStore, 'read'>;
  /** Where the files are written (DATA_DIR/exports). */
  dir: string;
  /** How often the worker looks for jobs and expired files (ms); 0: no timer (tests call `tick()`). */
  tickMs: number;
  /** How long a claimed job is held without a renewal before another server may take it over. */
  leaseMs?: number;
  /** Rows read and written per page. */
  pageSize?: number;
  /** Jobs this server runs at once. */
  concurrency?: number;
}

/** Why an export stopped without failing: the server is stopping, or another server holds the job now. */
class Stopped extends Error {}
class Lost extends Error {}

const EXTENSIONS: Record<string, string> = { csv: 'csv', xlsx: 'xlsx' };
/** Files of attempts no job holds any more (a server that died mid-export) are deleted after this. */
const ORPHAN_AGE_MS = 60 * 60_000;
const SWEEP_EVERY_MS = 60_000;
/** Rows mapped and encoded between two yields to the event loop. */
const SLICE = 100;

/**
 * The export worker (docs/api-reports.md "Exports"): every tick each server claims queued jobs, and
 * running jobs whose server's lease ran out, by a conditional update (one server wins), then streams
 * the selected rows from the database in keyset pages into the file, renewing its lease and the
 * progress at every page and yielding to the event loop between pages. A job it no longer holds
 * (taken over after a stall) is dropped with its file. A finished file is kept EXPORT_RETENTION_DAYS;
 * the sweep then deletes it and marks the job expired, and deletes files no job holds.
 */
export function createExportWorker(deps: ExportWorkerDeps) {
  const { db, clock, log } = deps;
  const repo = exportRepo(db);
  const instanceId = randomUUID();
  const leaseMs = deps.leaseMs ?? 60_000;
  // A page is read, mapped and written in one go (SQLite reads synchronously): small enough to keep
  // other requests' waits short, large enough for few statements.
  const pageSize = deps.pageSize ?? 500;
  const concurrency = deps.concurrency ?? 1;
  const active = new Map<number, Promise<void>>();
  let ticking: Promise<void> | null = null;
  let closed = false;
  let lastSweep = 0;
  mkdirSync(deps.dir, { recursive: true });
  const iso = (d: Date) => d.toISOString();
  const leaseUntil = () => iso(new Date(clock().getTime() + leaseMs));
  const pathOf = (name: string) => join(deps.dir, name);
  const discard = (name: string | null) => (name ? rm(pathOf(name), { force: true }) : Promise.resolve());

  async function writerFor(job: ReportExportRow, out: WriteStream): Promise<ExportFileWriter> {
    await new Promise<void>((resolve, reject) => {
      out.once('open', () => resolve());
      out.once('error', reject);
    });
    if (job.format === 'csv') return csvWriter(out, job.encoding as ExportEncoding);
    if (job.template_id === null) {
      if (job.template_name !== null) throw new TemplateProblem('reportValidation.notXlsx');
      return xlsxWriter(out, { sheetName: exportTexts(job.language as Lang).sheetName, now: clock() });
    }
    const template = await repo.template(job.template_id);
    const bytes = template ? await deps.fileStore.read(template.file_key) : null;
    if (!bytes) throw new TemplateProblem('reportValidation.notXlsx');
    return templateXlsxWriter(out, bytes, { now: clock() });
  }

  /** Writes a claimed job's file from the start and records the outcome. */
  async function run(id: number, fileName: string): Promise<void> {
    const job = await repo.job(id);
    if (!job) return;
    const path = pathOf(fileName);
    let out: WriteStream | null = null;
    try {
      const selection: ReportSelection = reportSelectionSchema.parse(JSON.parse(job.selection));
      const scope = { organizationId: job.scope_organization_id, buildingId: job.scope_building_id };
      const texts = exportTexts(job.language as Lang);
      const toCells = rowMapper(texts);
      out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
      const writer = await writerFor(job, out);
      await writer.header(headerOf(texts));
      let after = 0;
      let done = 0;
      for (;;) {
        if (closed) throw new Stopped();
        const rows = await repo.rowsAfter(selection, scope, after, job.max_detail_id, pageSize);
        if (rows.length === 0) break;
        // Mapped and encoded in slices, yielding between them: a request waits at most one slice.
        for (let i = 0; i < rows.length; i += SLICE) {
          await writer.rows(rows.slice(i, i + SLICE).map(toCells));
          if (i + SLICE < rows.length) await yieldToEventLoop();
        }
        after = rows[rows.length - 1]!.id;
        done += rows.length;
        if (!(await repo.updateHeld(id, instanceId, { rows_done: done, lease_until: leaseUntil() }))) throw new Lost();
        // Other requests run between pages: the server stays responsive during a long export.
        await yieldToEventLoop();
      }
      await writer.close();
      const { size } = await stat(path);
      const now = clock();
      const finished = await repo.updateHeld(id, instanceId, {
        status: 'done',
        rows_done: done,
        row_count: done,
        file_size: size,
        error: null,
        finished_at: iso(now),
        expires_at: iso(new Date(now.getTime() + EXPORT_RETENTION_DAYS * 86_400_000)),
        lease_owner: null,
        lease_until: null,
      });
      if (!finished) await discard(fileName);
    } catch (err) {
      out?.destroy();
      await discard(fileName);
      if (err instanceof Lost) return;
      if (err instanceof Stopped) {
        // Another server may take it over at once.
        await repo.updateHeld(id, instanceId, { lease_until: iso(clock()), rows_done: 0 }).catch(() => undefined);
        return;
      }
      const code =
        err instanceof TemplateProblem
          ? 'TEMPLATE_UNAVAILABLE'
          : err instanceof ZipTooLargeError || err instanceof RangeError
            ? 'TOO_LARGE'
            : 'INTERNAL';
      if (code === 'INTERNAL') log.error({ err, exportId: id }, 'report export failed');
      await repo.updateHeld(id, instanceId, {
        status: 'fail',
        error: code,
        file_path: null,
        finished_at: iso(clock()),
        lease_owner: null,
        lease_until: null,
      });
    }
  }

  /** Deletes the files of exports past their retention, and files no job holds. */
  async function sweep(): Promise<void> {
    const now = iso(clock());
    for (;;) {
      const expired = await repo.expired(now, 100);
      for (const e of expired) {
        await discard(e.file_path);
        await repo.markExpired(e.id);
      }
      if (expired.length < 100) break;
    }
    const names = await readdir(deps.dir).catch(() => [] as string[]);
    for (let i = 0; i < names.length; i += 200) {
      const batch = names.slice(i, i + 200);
      const held = await repo.heldFiles(batch);
      for (const name of batch) {
        if (held.has(name)) continue;
        const info = await stat(pathOf(name)).catch(() => null);
        if (info && clock().getTime() - info.mtimeMs > ORPHAN_AGE_MS) await discard(name);
      }
    }
  }

  async function round(): Promise<void> {
    if (Date.now() - lastSweep >= SWEEP_EVERY_MS || deps.tickMs === 0) {
      lastSweep = Date.now();
      await sweep();
    }
    while (!closed && active.size < concurrency) {
      const now = iso(clock());
      const candidates = await repo.claimable(now, concurrency);
      let claimed = false;
      for (const c of candidates) {
        if (closed || active.size >= concurrency || active.has(c.id)) continue;
        const fileName = `${c.id}-${randomBytes(8).toString('hex')}.${EXTENSIONS[c.format] ?? 'bin'}`;
        if (!(await repo.claim(c.id, instanceId, now, leaseUntil(), fileName))) continue;
        claimed = true;
        // The file of an attempt that did not finish (a server that died) is not needed any more.
        if (c.file_path) await discard(c.file_path);
        const task = run(c.id, fileName)
          .catch((err: unknown) => log.error({ err, exportId: c.id }, 'report export not carried out'))
          .finally(() => {
            active.delete(c.id);
            // The next queued job starts as soon as one ends.
            if (!closed) void tick();
          });
        active.set(c.id, task);
      }
      if (!claimed) break;
    }
  }

  /** One round (the timer runs it every `tickMs`; a new export calls it at once). */
  function tick(): Promise<void> {
    if (closed) return Promise.resolve();
    ticking ??= round()
      .catch((err: unknown) => log.error({ err }, 'report export round failed'))
      .finally(() => {
        ticking = null;
      });
    return ticking;
  }

  const timer = deps.tickMs > 0 ? setInterval(() => void tick(), deps.tickMs) : null;
  timer?.unref();

  return {
    instanceId,
    tick,
    /** Waits until no round and no export of this server is in progress (tests). */
    async idle(): Promise<void> {
      while (ticking || active.size > 0) {
        await ticking;
        await Promise.all([...active.values()]);
      }
    },
    /** Stops: the exports in progress stop at their next page and are left for another server. */
    async close(): Promise<void> {
      closed = true;
      if (timer) clearInterval(timer);
      await ticking;
      await Promise.all([...active.values()]);
    },
  };
}
export type ExportWorker = ReturnType<typeof createExportWorker>;
