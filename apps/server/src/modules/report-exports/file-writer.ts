import { once } from 'node:events';
import type { Writable } from 'node:stream';

/** One cell of an export: text, a number, or empty. */
export type Cell = string | number | null;

/**
 * Writes an export file to a stream: the header once, then rows page by page, then `close()`, which
 * finishes the file and ends the stream. Each call waits for the stream's back-pressure, so memory
 * holds one page at most.
 */
export interface ExportFileWriter {
  header(labels: readonly string[]): Promise<void>;
  rows(rows: readonly (readonly Cell[])[]): Promise<void>;
  close(): Promise<void>;
}

/** Writes bytes, waiting for the stream to drain when its buffer is full. */
export async function put(out: Writable, bytes: Buffer): Promise<void> {
  if (!out.write(bytes)) await once(out, 'drain');
}

/** Ends the stream and waits until everything is written (and the file is closed). */
export async function endStream(out: Writable): Promise<void> {
  if (out.writableFinished) return;
  const done = once(out, 'finish');
  out.end();
  await done;
}
