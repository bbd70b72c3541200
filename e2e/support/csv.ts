/**
 * Reading the CSV files the tests download: decoding (UTF-8 or Shift_JIS, strictly: a byte that is
 * not of the encoding fails the test) and RFC 4180 parsing (quoted fields with commas, quotes and
 * line breaks; CRLF or LF rows).
 */

export type CsvEncoding = 'utf-8' | 'shift-jis';

/**
 * The text of `bytes` in `encoding` (WHATWG decoders: Shift_JIS is Windows-31J, as iconv-lite and
 * Excel write it). A UTF-8 byte-order mark is dropped and reported.
 */
export function decodeCsv(bytes: Uint8Array, encoding: CsvEncoding): { text: string; bom: boolean } {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const text = new TextDecoder(encoding === 'utf-8' ? 'utf-8' : 'shift_jis', { fatal: true, ignoreBOM: true }).decode(
    bom ? bytes.subarray(3) : bytes,
  );
  return { text, bom };
}

/** Whether `bytes` is valid UTF-8 (Shift_JIS Japanese text is not). */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The rows of a CSV text (a trailing line break ends the last row; it makes no empty row). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else field += ch;
      i++;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' || ch === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      if (ch === '\r' && text[i + 1] === '\n') i++;
    } else field += ch;
    i++;
  }
  if (quoted) throw new Error('CSV: a quoted field is not closed');
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
