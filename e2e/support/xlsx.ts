import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Just enough ZIP and SpreadsheetML (.xlsx) to make an export template by hand and to open the
 * exported workbooks the tests download, part by part, byte for byte (no dependency: an .xlsx is a
 * ZIP of XML parts). Reads what any writer makes: stored or deflated entries, data descriptors, ZIP64
 * sizes; writes deflated entries with a fixed time, so the generated fixture is reproducible.
 */

export type ZipParts = Map<string, Buffer>;

const EOCD = 0x06054b50;
const ZIP64_EOCD = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** The entries of a ZIP archive (name → uncompressed bytes), read through its central directory. */
export function readZip(zip: Buffer): ZipParts {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a ZIP archive (no end of central directory)');
  let count = zip.readUInt16LE(eocd + 10);
  let dirOffset = zip.readUInt32LE(eocd + 16);
  if (eocd >= 20 && zip.readUInt32LE(eocd - 20) === ZIP64_LOCATOR) {
    const at = Number(zip.readBigUInt64LE(eocd - 20 + 8));
    if (zip.readUInt32LE(at) !== ZIP64_EOCD) throw new Error('bad ZIP64 end of central directory');
    count = Number(zip.readBigUInt64LE(at + 32));
    dirOffset = Number(zip.readBigUInt64LE(at + 48));
  }
  const parts: ZipParts = new Map();
  let p = dirOffset;
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(p) !== CENTRAL) throw new Error(`bad central directory entry at ${p}`);
    const method = zip.readUInt16LE(p + 10);
    const crc = zip.readUInt32LE(p + 16);
    let compressed = zip.readUInt32LE(p + 20);
    let size = zip.readUInt32LE(p + 24);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    let local = zip.readUInt32LE(p + 42);
    const name = zip.toString('utf8', p + 46, p + 46 + nameLength);
    // ZIP64 extended information: the 64-bit values of the fields that say 0xffffffff, in order.
    let e = p + 46 + nameLength;
    const extraEnd = e + extraLength;
    while (e + 4 <= extraEnd) {
      const id = zip.readUInt16LE(e);
      const len = zip.readUInt16LE(e + 2);
      if (id === 0x0001) {
        let q = e + 4;
        if (size === 0xffffffff) {
          size = Number(zip.readBigUInt64LE(q));
          q += 8;
        }
        if (compressed === 0xffffffff) {
          compressed = Number(zip.readBigUInt64LE(q));
          q += 8;
        }
        if (local === 0xffffffff) local = Number(zip.readBigUInt64LE(q));
      }
      e += 4 + len;
    }
    if (zip.readUInt32LE(local) !== LOCAL) throw new Error(`bad local header of ${name}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + compressed);
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) data = inflateRawSync(raw);
    else throw new Error(`${name}: compression method ${method} is not read here`);
    if (data.length !== size) throw new Error(`${name}: ${data.length} bytes, the directory says ${size}`);
    if (crc32(data) >>> 0 !== crc) throw new Error(`${name}: CRC mismatch`);
    if (!name.endsWith('/')) parts.set(name, data);
    p += 46 + nameLength + extraLength + commentLength;
  }
  return parts;
}

/** A ZIP archive of `parts` in the given order, deflated, dated 2026-01-01 00:00 (reproducible). */
export function writeZip(parts: ReadonlyArray<readonly [name: string, data: Buffer]>): Buffer {
  const dosTime = 0;
  const dosDate = ((2026 - 1980) << 9) | (1 << 5) | 1;
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of parts) {
    const nameBytes = Buffer.from(name, 'utf8');
    const packed = deflateRawSync(data, { level: 9 });
    const crc = crc32(data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL, 0);
    central.writeUInt16LE(20, 4); // made by
    central.writeUInt16LE(20, 6); // version needed
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(dosTime, 12);
    central.writeUInt16LE(dosDate, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(EOCD, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

// ---------------------------------------------------------------- SpreadsheetML

const unescapeXml = (s: string) =>
  s
    .replace(/&#x([0-9a-fA-F]+);/g, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

const attr = (tag: string, name: string): string | undefined => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** The text of an `<si>` or `<is>` element: its `<t>` runs joined (phonetic `<rPh>` runs left out). */
const runText = (xml: string) =>
  [...xml.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '').matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g)]
    .map((m) => unescapeXml(m[1]!))
    .join('');

/** The shared strings of a workbook (xl/sharedStrings.xml), in order; [] when it has none. */
export function sharedStrings(parts: ZipParts): string[] {
  const xml = parts.get('xl/sharedStrings.xml')?.toString('utf8');
  if (!xml) return [];
  return [...xml.matchAll(/<si>([\s\S]*?)<\/si>|<si\/>/g)].map((m) => runText(m[1] ?? ''));
}

/** The sheets of a workbook in order, each with the path of its part (e.g. `xl/worksheets/sheet2.xml`). */
export function sheetsOf(parts: ZipParts): { name: string; path: string }[] {
  const workbook = parts.get('xl/workbook.xml')?.toString('utf8');
  const rels = parts.get('xl/_rels/workbook.xml.rels')?.toString('utf8');
  if (!workbook || !rels) throw new Error('not a workbook: xl/workbook.xml or its relationships are missing');
  const targets = new Map(
    [...rels.matchAll(/<Relationship\b[^>]*>/g)].map((m) => [attr(m[0], 'Id')!, attr(m[0], 'Target')!]),
  );
  return [...workbook.matchAll(/<sheet\b[^>]*>/g)].map((m) => {
    const target = targets.get(attr(m[0], 'r:id')!)!;
    const path = target.startsWith('/') ? target.slice(1) : `xl/${target}`;
    return { name: unescapeXml(attr(m[0], 'name')!), path };
  });
}

export interface Cell {
  /** e.g. `B3` */
  ref: string;
  /** The value as text: a shared or inline string, a number as written, a boolean as 0/1. */
  value: string;
  /** The formula, without `=`, if the cell has one. */
  formula?: string;
}

/** The rows of a sheet: each row's cells in order (by row number, 1-based; missing rows are absent). */
export function sheetRows(parts: ZipParts, sheetName: string): Map<number, Cell[]> {
  const sheet = sheetsOf(parts).find((s) => s.name === sheetName);
  if (!sheet) throw new Error(`the workbook has no sheet "${sheetName}"`);
  const xml = parts.get(sheet.path)?.toString('utf8');
  if (!xml) throw new Error(`the part ${sheet.path} of sheet "${sheetName}" is missing`);
  const strings = sharedStrings(parts);
  const rows = new Map<number, Cell[]>();
  for (const row of xml.matchAll(/<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g)) {
    const r = Number(attr(row[1]!, 'r'));
    const cells: Cell[] = [];
    for (const c of (row[2] ?? '').matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const head = c[1]!;
      const body = c[2] ?? '';
      const type = attr(head, 't');
      const v = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
      const f = /<f(?:\s[^>]*)?>([\s\S]*?)<\/f>/.exec(body)?.[1];
      let value: string;
      if (type === 's') value = strings[Number(v)] ?? '';
      else if (type === 'inlineStr') value = runText(/<is>([\s\S]*?)<\/is>/.exec(body)?.[1] ?? '');
      else value = v === undefined ? '' : unescapeXml(v);
      cells.push({ ref: attr(head, 'r') ?? '', value, ...(f !== undefined ? { formula: unescapeXml(f) } : {}) });
    }
    rows.set(r, cells);
  }
  return rows;
}

/** A row's values in column order, gaps filled with '' (cells without `r` taken in order). */
export function rowValues(cells: readonly Cell[]): string[] {
  const out: string[] = [];
  let next = 0;
  for (const cell of cells) {
    const letters = /^[A-Z]+/.exec(cell.ref)?.[0];
    const col = letters ? [...letters].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1 : next;
    while (out.length < col) out.push('');
    out[col] = cell.value;
    next = col + 1;
  }
  return out;
}
