import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/time.ts';
import { sha256OffThread } from '../lib/image-worker.ts';
import { fileRepo, type FileRow } from './file-repo.ts';

/** A stored file's row in `files`; the bytes live in the store under the same key. */
export type StoredFile = FileRow;

export interface NewFile {
  bytes: Buffer;
  contentType: string;
  organizationId: number;
  buildingId: number | null;
  purpose: string;
}

export type FileStore = ReturnType<typeof createFileStore>;

/** Keys are 128 random bits in hex: unguessable and safe as a file name. */
export const FILE_KEY_PATTERN = /^[0-9a-f]{32}$/;

/** Files from this size on are hashed on the worker thread (a map image of megabytes; issue 11). */
const HASH_OFF_THREAD_BYTES = 1024 * 1024;

const sha256Of = (bytes: Buffer): Promise<string> | string =>
  bytes.length >= HASH_OFF_THREAD_BYTES ? sha256OffThread(bytes) : createHash('sha256').update(bytes).digest('hex');

/**
 * Stored files (map images now; photos, exports, recordings later): bytes under `dir`
 * (DATA_DIR/files), metadata in the `files` table. The bytes are behind put/read/remove only, so an
 * S3-compatible store can replace the folder without touching callers.
 */
export function createFileStore({ dir, db, clock }: { dir: string; db: Kysely<Database>; clock: Clock }) {
  mkdirSync(dir, { recursive: true });
  const pathOf = (key: string) => {
    if (!FILE_KEY_PATTERN.test(key)) throw new Error('Invalid file key');
    return join(dir, key);
  };

  /**
   * Hashes and writes the bytes (no database work): a caller with a transaction writes the bytes
   * first and keeps its transaction short (`record` inside it). `discard(key)` removes them when the
   * transaction does not commit.
   */
  async function write(file: NewFile): Promise<StoredFile> {
    const key = randomBytes(16).toString('hex');
    const stored: StoredFile = {
      key,
      organizationId: file.organizationId,
      buildingId: file.buildingId,
      contentType: file.contentType,
      size: file.bytes.length,
      sha256: await sha256Of(file.bytes),
      purpose: file.purpose,
      createdAt: clock().toISOString(),
    };
    await writeFile(pathOf(key), file.bytes, { flag: 'wx', mode: 0o600 });
    return stored;
  }

  return {
    write,

    /** The row of bytes `write` stored (inside `trx` when given). */
    record: (stored: StoredFile, trx: Kysely<Database> = db): Promise<void> => fileRepo.insert(trx, stored),

    /**
     * Writes the bytes, then the row (inside `trx` when given). When the caller's transaction
     * fails afterwards it must call `discard(key)` so no orphaned bytes remain.
     */
    async save(file: NewFile, trx: Kysely<Database> = db): Promise<StoredFile> {
      const stored = await write(file);
      try {
        await fileRepo.insert(trx, stored);
      } catch (err) {
        await rm(pathOf(stored.key), { force: true });
        throw err;
      }
      return stored;
    },

    async find(key: string): Promise<StoredFile | null> {
      if (!FILE_KEY_PATTERN.test(key)) return null;
      return fileRepo.find(db, key);
    },

    /** The bytes of a stored file, or null when they are gone. */
    async read(key: string): Promise<Buffer | null> {
      try {
        return await readFile(pathOf(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },

    /** Deletes the row (inside `trx` when given); call `discard` for the bytes once committed. */
    async removeRow(key: string, trx: Kysely<Database> = db): Promise<void> {
      await fileRepo.remove(trx, key);
    },

    /** Deletes the bytes; a missing file is not an error. */
    async discard(key: string): Promise<void> {
      if (FILE_KEY_PATTERN.test(key)) await rm(pathOf(key), { force: true });
    },
  };
}
