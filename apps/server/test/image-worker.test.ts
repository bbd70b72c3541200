import { createHash } from 'node:crypto';
import { isMainThread } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { closeImageWorker, occupancyPngOffThread, sha256OffThread } from '../src/lib/image-worker.ts';
import { occupancyGridPng } from '../src/lib/png.ts';

/** Issue 11: a large map image is encoded and hashed off the main thread, so the event loop goes on. */
describe('image worker', () => {
  afterAll(async () => {
    await closeImageWorker();
  });

  it('encodes a mapping grid exactly as on the main thread, while the main thread keeps turning', async () => {
    expect(isMainThread).toBe(true);
    const n = 2000;
    const cells = new Uint8Array(n * n);
    for (let i = 0; i < cells.length; i++) cells[i] = i % 7 === 0 ? 100 : i % 3 === 0 ? 255 : 0;
    // Warm up the worker so the count below is about the encoding only.
    await occupancyPngOffThread(2, 2, new Uint8Array([0, 100, 255, 0]));
    let turns = 0;
    let encoding = true;
    const spin = (): void => {
      if (!encoding) return;
      turns++;
      setImmediate(spin);
    };
    const result = occupancyPngOffThread(n, n, cells).finally(() => {
      encoding = false;
    });
    setImmediate(spin);
    const png = await result;
    // Done on the main thread, the encoding would have finished before any event-loop turn.
    expect(turns).toBeGreaterThan(0);
    expect(png.equals(occupancyGridPng(n, n, cells))).toBe(true);
    // The caller's cells are left as they were (copied, not transferred away).
    expect(cells.length).toBe(n * n);
  });

  it('leaves the caller its Buffer whole: the cells are copied, never moved to the worker', async () => {
    // Buffer's slice() is a view of the same memory: moving its ArrayBuffer detached the caller's cells
    // (a mapping session keeps them for the next save), and the next use failed.
    const n = 64;
    const cells = Buffer.alloc(n * n, 100);
    const small = Buffer.from([0, 100, 255, 0]);
    const png = await occupancyPngOffThread(n, n, cells);
    expect(png.equals(occupancyGridPng(n, n, new Uint8Array(n * n).fill(100)))).toBe(true);
    expect(cells.length).toBe(n * n);
    expect(cells[n * n - 1]).toBe(100);
    await occupancyPngOffThread(2, 2, small);
    expect([...small]).toEqual([0, 100, 255, 0]);
  });

  it('hashes bytes off the main thread with the same result', async () => {
    const bytes = Buffer.alloc(1_000_000, 7);
    expect(await sha256OffThread(bytes)).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('answers a failing job with an error and goes on with the next', async () => {
    await expect(occupancyPngOffThread(-1, 1, new Uint8Array(0))).rejects.toThrow();
    expect((await occupancyPngOffThread(1, 1, new Uint8Array([0]))).length).toBeGreaterThan(0);
  });
});
