import type { Writable } from 'node:stream';
import type { ExportEncoding } from '@portal/contract';
import iconv from 'iconv-lite';
import { endStream, put, type Cell, type ExportFileWriter } from './file-writer.ts';

/**
 * CSV exports (docs/api-reports.md "Exports"): RFC 4180 (fields with a comma, quote, CR or LF are
 * quoted, quotes doubled, lines end with CRLF), in UTF-8 with a byte order mark (so Excel reads it as
 * UTF-8) or in Shift_JIS (Windows code page 932, as Excel in Japan writes it), where a character it
 * cannot encode becomes '?'.
 *
 * A text cell that a spreadsheet would run as a formula (it starts with =, +, @, a tab or CR, or a
 * '-' not followed by a digit) is written with a leading apostrophe, so a robot's or an operator's
 * text cannot become a formula in the reader's spreadsheet.
 */

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Characters that exist in Shift_JIS but that Unicode text often carries as their other code point
 * (JIS X 0208 mapping vs Windows' mapping): written as the Windows one, not as '?'.
 */
const TO_CP932: Record<string, string> = {
  '\u301c': '\uff5e', // WAVE DASH → FULLWIDTH TILDE
  '\u2016': '\u2225', // DOUBLE VERTICAL LINE → PARALLEL TO
  '\u2212': '\uff0d', // MINUS SIGN → FULLWIDTH HYPHEN-MINUS
  '\u00a2': '\uffe0', // CENT SIGN
  '\u00a3': '\uffe1', // POUND SIGN
  '\u00ac': '\uffe2', // NOT SIGN
  '\u2014': '\u2015', // EM DASH → HORIZONTAL BAR
};
const CP932_FIX = new RegExp(`[${Object.keys(TO_CP932).join('')}]`, 'g');

/** The bytes of CSV text in the export's encoding. */
export function encodeText(text: string, encoding: ExportEncoding): Buffer {
  if (encoding === 'utf-8') return Buffer.from(text, 'utf8');
  return iconv.encode(
    text.replace(CP932_FIX, (c) => TO_CP932[c]!),
    'cp932',
  );
}

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^(?:[=+@\t\r]|-(?![\d.]))/;

/** One field: numbers as they are, text quoted when needed (RFC 4180) and kept from being a formula. */
export function csvField(v: Cell): string {
  if (v === null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  const text = FORMULA_START.test(v) ? `'${v}` : v;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: readonly Cell[]): string => cells.map(csvField).join(',') + '\r\n';

export function csvWriter(out: Writable, encoding: ExportEncoding): ExportFileWriter {
  return {
    async header(labels) {
      if (encoding === 'utf-8') await put(out, UTF8_BOM);
      await put(out, encodeText(csvLine(labels), encoding));
    },
    async rows(rows) {
      let text = '';
      for (const r of rows) text += csvLine(r);
      await put(out, encodeText(text, encoding));
    },
    close: () => endStream(out),
  };
}
