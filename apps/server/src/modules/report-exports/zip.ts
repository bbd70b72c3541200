import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { crc32, createDeflateRaw, inflateRawSync } from 'node:zlib';

/**
 * Just enough ZIP for .xlsx exports (docs/api-reports.md "Exports"): read an uploaded template's
 * directory (stored or deflated entries, data descriptors, ZIP64 sizes) and write a workbook entry by
 * entry to a stream: a template's entries copied as they are (their compressed bytes unchanged), small
 * parts deflated from memory, and one large part deflated as it is written, so memory stays bounded
 * whatever its size. No dependency: node:zlib deflates and computes the CRC-32.
 */

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const EOCD = 0x06054b50;
const ZIP64_EOCD = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const DESCRIPTOR = 0x08074b50;
/** General purpose flags: sizes in a data descriptor after the data; names in UTF-8. */
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
const MAX32 = 0xffffffff;

export class ZipFormatError extends Error {}

/** One entry of an archive's central directory. */
export interface ZipEntry {
  name: string;
  /** The name's bytes as stored (copied unchanged). */
  nameBytes: Buffer;
  flags: number;
  /** 0 stored, 8 deflated. */
  method: number;
  dosTime: number;
  dosDate: number;
  crc: number;
  compressedSize: number;
  size: number;
  /** Where the compressed bytes start in the archive. */
  dataOffset: number;
}

/** The entries of an archive in directory order; throws ZipFormatError when it is not a ZIP archive. */
export function readZipDirectory(zip: Buffer): ZipEntry[] {
  const fail = (why: string): never => {
    throw new ZipFormatError(why);
  };
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) fail('no end of central directory');
  let count = zip.readUInt16LE(eocd + 10);
  let dirOffset = zip.readUInt32LE(eocd + 16);
  if (eocd >= 20 && zip.readUInt32LE(eocd - 20) === ZIP64_LOCATOR) {
    const at = Number(zip.readBigUInt64LE(eocd - 20 + 8));
    if (at + 56 > zip.length || zip.readUInt32LE(at) !== ZIP64_EOCD) fail('bad ZIP64 end of central directory');
    count = Number(zip.readBigUInt64LE(at + 32));
    dirOffset = Number(zip.readBigUInt64LE(at + 48));
  }
  const entries: ZipEntry[] = [];
  let p = dirOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > zip.length || zip.readUInt32LE(p) !== CENTRAL) fail(`bad central directory entry at ${p}`);
    const flags = zip.readUInt16LE(p + 8);
    const method = zip.readUInt16LE(p + 10);
    const dosTime = zip.readUInt16LE(p + 12);
    const dosDate = zip.readUInt16LE(p + 14);
    const crc = zip.readUInt32LE(p + 16);
    let compressedSize = zip.readUInt32LE(p + 20);
    let size = zip.readUInt32LE(p + 24);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    let local = zip.readUInt32LE(p + 42);
    if (p + 46 + nameLength + extraLength > zip.length) fail('truncated central directory');
    const nameBytes = Buffer.from(zip.subarray(p + 46, p + 46 + nameLength));
    // ZIP64 extended information: the 64-bit values of the fields that say 0xffffffff, in order.
    let e = p + 46 + nameLength;
    const extraEnd = e + extraLength;
    while (e + 4 <= extraEnd) {
      const id = zip.readUInt16LE(e);
      const len = zip.readUInt16LE(e + 2);
      if (id === 0x0001) {
        let q = e + 4;
        if (size === MAX32) {
          size = Number(zip.readBigUInt64LE(q));
          q += 8;
        }
        if (compressedSize === MAX32) {
          compressedSize = Number(zip.readBigUInt64LE(q));
          q += 8;
        }
        if (local === MAX32) local = Number(zip.readBigUInt64LE(q));
      }
      e += 4 + len;
    }
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL) fail(`bad local header at ${local}`);
    const dataOffset = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    if (dataOffset + compressedSize > zip.length) fail('truncated entry');
    if (flags & 0x0001) fail('encrypted entry');
    entries.push({
      name: nameBytes.toString(flags & FLAG_UTF8 ? 'utf8' : 'latin1'),
      nameBytes,
      flags,
      method,
      dosTime,
      dosDate,
      crc,
      compressedSize,
      size,
      dataOffset,
    });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** An entry's compressed bytes as stored. */
export const rawData = (zip: Buffer, e: ZipEntry): Buffer =>
  zip.subarray(e.dataOffset, e.dataOffset + e.compressedSize);

/** An entry's content; throws ZipFormatError on an unknown method or a bad CRC. */
export function entryData(zip: Buffer, e: ZipEntry): Buffer {
  const raw = rawData(zip, e);
  let data: Buffer;
  try {
    if (e.method === 0) data = raw;
    else if (e.method === 8) data = inflateRawSync(raw, { maxOutputLength: Math.max(e.size, 1) });
    else throw new ZipFormatError(`${e.name}: compression method ${e.method}`);
  } catch (err) {
    if (err instanceof ZipFormatError) throw err;
    throw new ZipFormatError(`${e.name}: ${(err as Error).message}`);
  }
  if (data.length !== e.size || crc32(data) >>> 0 !== e.crc) throw new ZipFormatError(`${e.name}: bad content`);
  return data;
}

/** DOS time and date of an instant (local fields read as UTC: a ZIP has no zone). */
function dosDateTime(d: Date): { dosTime: number; dosDate: number } {
  return {
    dosTime: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    dosDate: ((Math.max(d.getUTCFullYear(), 1980) - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

interface Written {
  nameBytes: Buffer;
  flags: number;
  method: number;
  dosTime: number;
  dosDate: number;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
}

/** Thrown when the archive outgrows what a ZIP without ZIP64 holds (4 GiB per entry and in all). */
export class ZipTooLargeError extends Error {}

/**
 * Writes an archive to `out`, entry by entry, respecting its back-pressure. `finish()` writes the
 * central directory; the caller ends `out`.
 */
export class ZipWriter {
  private offset = 0;
  private readonly written: Written[] = [];
  private readonly time: { dosTime: number; dosDate: number };

  constructor(
    private readonly out: Writable,
    now: Date = new Date(),
  ) {
    this.time = dosDateTime(now);
  }

  /** Bytes written so far. */
  get size(): number {
    return this.offset;
  }

  private async put(bytes: Buffer): Promise<void> {
    this.offset += bytes.length;
    if (this.offset > MAX32) throw new ZipTooLargeError('the archive is larger than 4 GiB');
    if (!this.out.write(bytes)) await once(this.out, 'drain');
  }

  private localHeader(w: Omit<Written, 'offset'>): Buffer {
    const h = Buffer.alloc(30);
    h.writeUInt32LE(LOCAL, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(w.flags, 6);
    h.writeUInt16LE(w.method, 8);
    h.writeUInt16LE(w.dosTime, 10);
    h.writeUInt16LE(w.dosDate, 12);
    const descriptor = (w.flags & FLAG_DESCRIPTOR) !== 0;
    h.writeUInt32LE(descriptor ? 0 : w.crc, 14);
    h.writeUInt32LE(descriptor ? 0 : w.compressedSize, 18);
    h.writeUInt32LE(descriptor ? 0 : w.size, 22);
    h.writeUInt16LE(w.nameBytes.length, 26);
    h.writeUInt16LE(0, 28);
    return Buffer.concat([h, w.nameBytes]);
  }

  /** Copies an entry of another archive: its name, date, method, CRC and compressed bytes unchanged. */
  async copy(entry: ZipEntry, raw: Buffer): Promise<void> {
    const w = {
      nameBytes: entry.nameBytes,
      flags: entry.flags & FLAG_UTF8,
      method: entry.method,
      dosTime: entry.dosTime,
      dosDate: entry.dosDate,
      crc: entry.crc,
      compressedSize: entry.compressedSize,
      size: entry.size,
    };
    const offset = this.offset;
    await this.put(this.localHeader(w));
    await this.put(raw);
    this.written.push({ ...w, offset });
  }

  /** Adds a part from memory, deflated. */
  async add(name: string, data: Buffer): Promise<void> {
    const entry = this.entry(name);
    await entry.write(data);
    await entry.end();
  }

  /**
   * Starts a part written in pieces (deflated as it comes, sizes in a data descriptor). Write with
   * `await write(chunk)` and close with `await end()` before the next entry.
   */
  entry(name: string): { write(chunk: Buffer | string): Promise<void>; end(): Promise<void> } {
    const nameBytes = Buffer.from(name, 'utf8');
    const flags = FLAG_DESCRIPTOR | FLAG_UTF8;
    const offset = this.offset;
    const head = this.localHeader({
      nameBytes,
      flags,
      method: 8,
      ...this.time,
      crc: 0,
      compressedSize: 0,
      size: 0,
    });
    const deflate = createDeflateRaw({ level: 6 });
    let crc = 0;
    let size = 0;
    let compressedSize = 0;
    let failure: Error | null = null;
    // The compressed bytes go out as they come; the writes are chained so their order is kept.
    let chain: Promise<void> = this.put(head);
    deflate.on('data', (c: Buffer) => {
      compressedSize += c.length;
      chain = chain.then(() => this.put(c));
      chain.catch((err: unknown) => {
        failure ??= err as Error;
      });
    });
    deflate.on('error', (err) => {
      failure ??= err;
    });
    return {
      write: async (chunk) => {
        if (failure) throw failure;
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
        crc = crc32(bytes, crc);
        size += bytes.length;
        if (size > MAX32) throw new ZipTooLargeError('a part is larger than 4 GiB');
        if (!deflate.write(bytes)) await once(deflate, 'drain');
        // Lets the file catch up before more is compressed (memory stays bounded).
        await chain;
      },
      end: async () => {
        deflate.end();
        await once(deflate, 'end');
        await chain;
        if (failure) throw failure;
        const d = Buffer.alloc(16);
        d.writeUInt32LE(DESCRIPTOR, 0);
        d.writeUInt32LE(crc >>> 0, 4);
        d.writeUInt32LE(compressedSize, 8);
        d.writeUInt32LE(size, 12);
        await this.put(d);
        this.written.push({
          nameBytes,
          flags,
          method: 8,
          ...this.time,
          crc: crc >>> 0,
          compressedSize,
          size,
          offset,
        });
      },
    };
  }

  /** Writes the central directory and the end record. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const w of this.written) {
      const c = Buffer.alloc(46);
      c.writeUInt32LE(CENTRAL, 0);
      c.writeUInt16LE(20, 4);
      c.writeUInt16LE(20, 6);
      c.writeUInt16LE(w.flags, 8);
      c.writeUInt16LE(w.method, 10);
      c.writeUInt16LE(w.dosTime, 12);
      c.writeUInt16LE(w.dosDate, 14);
      c.writeUInt32LE(w.crc, 16);
      c.writeUInt32LE(w.compressedSize, 20);
      c.writeUInt32LE(w.size, 24);
      c.writeUInt16LE(w.nameBytes.length, 28);
      c.writeUInt32LE(w.offset, 42);
      await this.put(Buffer.concat([c, w.nameBytes]));
    }
    if (this.written.length > 0xffff) throw new ZipTooLargeError('too many entries');
    const end = Buffer.alloc(22);
    end.writeUInt32LE(EOCD, 0);
    end.writeUInt16LE(this.written.length, 8);
    end.writeUInt16LE(this.written.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.put(end);
  }
}
