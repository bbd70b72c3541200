import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PrepareMapJob, PreparedMap } from '../modules/maps/map-document-text.ts';
import type { ImageAnswer, ImageJobBody } from './image-worker-thread.ts';

/**
 * CPU-heavy image work off the main thread (issue 11): a mapping grid of 4000 × 4000 cells takes
 * about a second to turn into a PNG, which on the main thread would stall every request, socket and
 * robot message meanwhile. Large map documents are parsed, checked and written there too (a 9 MB
 * document took seconds of the main thread). One worker thread, started on first use and not keeping
 * the process alive; jobs queue there in order.
 */
let worker: Worker | null = null;
let next = 0;
const waiting = new Map<number, { ok: (a: ImageAnswer) => void; fail: (err: Error) => void }>();
/** Jobs sent, by kind (tests see that a service hands its work to the worker). */
const sent = new Map<ImageJobBody['kind'], number>();
export const imageWorkerJobs = (kind: ImageJobBody['kind']): number => sent.get(kind) ?? 0;

/**
 * The thread's code. Built (`npm run build:server`, docs/deployment.md), this module is part of
 * `dist/main.mjs` and the thread is its own bundle beside it; from the TypeScript source (tests,
 * `npm run serve`) a small bootstrap loads the thread's module through tsx. Messages sent meanwhile
 * wait in the thread's queue.
 */
function workerSource(): [string | URL, { eval?: boolean; execArgv?: string[] }] {
  // The bundle needs none of the process's flags (a `--import` of a TypeScript probe, as the
  // benchmarks load, would fail in the thread before anything else loads).
  if (import.meta.url.endsWith('.mjs'))
    return [new URL('./image-worker-thread.mjs', import.meta.url), { execArgv: [] }];
  const file = fileURLToPath(new URL('./image-worker-thread.ts', import.meta.url));
  const boot = `import('tsx/esm/api').then((m) => m.tsImport(${JSON.stringify(file)}, ${JSON.stringify(import.meta.url)}))`;
  return [`${boot}.catch((err) => { console.error(err); process.exit(1); });`, { eval: true }];
}

function start(): Worker {
  const w = new Worker(...workerSource());
  w.unref();
  w.on('message', (a: ImageAnswer) => {
    const job = waiting.get(a.id);
    waiting.delete(a.id);
    if (a.error !== undefined) job?.fail(new Error(a.error));
    else job?.ok(a);
  });
  const lost = (err: Error) => {
    if (worker === w) worker = null;
    for (const job of waiting.values()) job.fail(err);
    waiting.clear();
  };
  w.on('error', lost);
  w.on('exit', (code) => lost(new Error(`image worker exited (${code})`)));
  return w;
}

function run(job: ImageJobBody, transfer: ArrayBuffer[] = []): Promise<ImageAnswer> {
  worker ??= start();
  const id = ++next;
  sent.set(job.kind, (sent.get(job.kind) ?? 0) + 1);
  return new Promise((ok, fail) => {
    waiting.set(id, { ok, fail });
    worker!.postMessage({ ...job, id }, transfer);
  });
}

/** `occupancyGridPng` (lib/png.ts) on the worker thread; the cells are copied, the caller keeps its own. */
export async function occupancyPngOffThread(width: number, height: number, cells: Uint8Array): Promise<Buffer> {
  // A copy in its own memory: a Buffer's slice() is a view of the caller's memory, and moving that
  // to the worker would detach the caller's cells.
  const copy = new Uint8Array(cells);
  const a = await run({ kind: 'occupancyPng', width, height, cells: copy }, [copy.buffer]);
  return Buffer.from(a.png!.buffer, a.png!.byteOffset, a.png!.byteLength);
}

/** SHA-256 (hex) of bytes on the worker thread. */
export async function sha256OffThread(bytes: Uint8Array): Promise<string> {
  return (await run({ kind: 'sha256', bytes })).hash!;
}

/**
 * `prepareMap` (modules/maps/map-document-text.ts) on the worker thread: a map document's JSON text
 * parsed, checked against the contract and the map rules, stamped and written back as text. Bytes
 * that fill their own buffer are transferred: the caller must not use them afterwards.
 */
export async function prepareMapOffThread(job: PrepareMapJob): Promise<PreparedMap> {
  // A body's bytes that fill their own buffer (a request body of megabytes) are moved, not copied.
  const t = job.text;
  const own = typeof t !== 'string' && t.byteOffset === 0 && t.byteLength === t.buffer.byteLength;
  return (await run({ kind: 'prepareMap', ...job }, own ? [t.buffer as ArrayBuffer] : [])).map!;
}

/**
 * The current photo against a reference's stored grid (`compareWithReferenceGrid`, schedules) on the
 * worker thread; the bytes are copied.
 */
export async function compareWithReferenceGridOffThread(
  grid: Uint8Array,
  current: Uint8Array,
): Promise<NonNullable<ImageAnswer['start']>> {
  const a = new Uint8Array(grid);
  const b = new Uint8Array(current);
  return (await run({ kind: 'startPositionGrid', grid: a, current: b }, [a.buffer, b.buffer])).start!;
}

/** A PNG's comparison grid as stored (`gridToBytes(pngToGrayGrid(png))`, schedules) on the worker thread. */
export async function startPositionGridOffThread(png: Uint8Array): Promise<Uint8Array> {
  const copy = new Uint8Array(png);
  return (await run({ kind: 'grayGrid', png: copy }, [copy.buffer])).grid!;
}

/** `pngThumbnail` (lib/png.ts) on the worker thread (report photos, issue 16); the bytes are copied. */
export async function pngThumbnailOffThread(
  png: Uint8Array,
  maxWidth: number,
): Promise<{ png: Buffer; width: number; height: number }> {
  const copy = new Uint8Array(png);
  const t = (await run({ kind: 'thumbnail', png: copy, maxWidth }, [copy.buffer])).thumbnail!;
  return { png: Buffer.from(t.png.buffer, t.png.byteOffset, t.png.byteLength), width: t.width, height: t.height };
}

/** `readGaugePng` (modules/meter-reading/gauge-reader.ts: QR code and needle) on the worker thread; the bytes are copied. */
export async function readGaugeOffThread(
  png: Uint8Array,
  expectedQr: string | null,
  scale: { min: number; max: number },
): Promise<NonNullable<ImageAnswer['gauge']>> {
  const copy = new Uint8Array(png);
  return (await run({ kind: 'readGauge', png: copy, expectedQr, scale }, [copy.buffer])).gauge!;
}

/** Stops the worker (server shutdown, tests); the next job starts a new one. */
export async function closeImageWorker(): Promise<void> {
  const w = worker;
  worker = null;
  if (w) await w.terminate();
}
