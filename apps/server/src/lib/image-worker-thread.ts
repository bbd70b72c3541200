import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { prepareMap, type PrepareMapJob, type PreparedMap } from '../modules/maps/map-document-text.ts';
import { occupancyGridPng, pngThumbnail } from './png.ts';
import { readGaugePng, type GaugeImageResult, type GaugeScale } from '../modules/meter-reading/gauge-reader.ts';
import {
  compareWithReferenceGrid,
  gridToBytes,
  pngToGrayGrid,
  type StartPositionScore,
} from '../modules/schedules/start-position.ts';

/**
 * The image worker (lib/image-worker.ts): PNG encoding of mapping grids, hashing, and the parsing,
 * checking and writing of large map documents, off the main thread.
 */
export type ImageJobBody =
  | { kind: 'occupancyPng'; width: number; height: number; cells: Uint8Array }
  | { kind: 'sha256'; bytes: Uint8Array }
  | ({ kind: 'prepareMap' } & PrepareMapJob)
  | { kind: 'startPositionGrid'; grid: Uint8Array; current: Uint8Array }
  | { kind: 'grayGrid'; png: Uint8Array }
  | { kind: 'thumbnail'; png: Uint8Array; maxWidth: number }
  | { kind: 'readGauge'; png: Uint8Array; expectedQr: string | null; scale: GaugeScale };
export type ImageJob = ImageJobBody & { id: number };
export type ImageAnswer = {
  id: number;
  png?: Uint8Array;
  hash?: string;
  map?: PreparedMap;
  start?: StartPositionScore & { pass: boolean };
  thumbnail?: { png: Uint8Array; width: number; height: number };
  grid?: Uint8Array;
  gauge?: GaugeImageResult;
  error?: string;
};

parentPort?.on('message', (job: ImageJob) => {
  try {
    if (job.kind === 'occupancyPng') {
      const png = occupancyGridPng(job.width, job.height, job.cells);
      const out = new Uint8Array(png.buffer, png.byteOffset, png.byteLength).slice();
      parentPort!.postMessage({ id: job.id, png: out } satisfies ImageAnswer, [out.buffer]);
    } else if (job.kind === 'thumbnail') {
      const t = pngThumbnail(job.png, job.maxWidth);
      const out = new Uint8Array(t.png.buffer, t.png.byteOffset, t.png.byteLength).slice();
      parentPort!.postMessage(
        { id: job.id, thumbnail: { png: out, width: t.width, height: t.height } } satisfies ImageAnswer,
        [out.buffer],
      );
    } else if (job.kind === 'startPositionGrid') {
      parentPort!.postMessage({
        id: job.id,
        start: compareWithReferenceGrid(job.grid, job.current),
      } satisfies ImageAnswer);
    } else if (job.kind === 'grayGrid') {
      const grid = gridToBytes(pngToGrayGrid(job.png));
      parentPort!.postMessage({ id: job.id, grid } satisfies ImageAnswer, [grid.buffer as ArrayBuffer]);
    } else if (job.kind === 'readGauge') {
      parentPort!.postMessage({
        id: job.id,
        gauge: readGaugePng(job.png, job.expectedQr, job.scale),
      } satisfies ImageAnswer);
    } else if (job.kind === 'prepareMap') {
      parentPort!.postMessage({ id: job.id, map: prepareMap(job) } satisfies ImageAnswer);
    } else {
      parentPort!.postMessage({
        id: job.id,
        hash: createHash('sha256').update(job.bytes).digest('hex'),
      } satisfies ImageAnswer);
    }
  } catch (err) {
    parentPort!.postMessage({ id: job.id, error: (err as Error).message } satisfies ImageAnswer);
  }
});
