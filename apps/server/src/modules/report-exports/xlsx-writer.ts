import type { Writable } from 'node:stream';
import { endStream, type Cell, type ExportFileWriter } from './file-writer.ts';
import { readTemplate, type TemplateWorkbook } from './template-reader.ts';
import { entryData, rawData, ZipWriter } from './zip.ts';

/**
 * Excel exports (docs/api-reports.md "Exports"): an .xlsx written as a streamed ZIP, the rows as
 * inline strings and numbers in one worksheet part deflated as it is written, so memory stays bounded
 * however many rows.
 *
 * With a template, every part of the customer's workbook is copied unchanged (its compressed bytes)
 * except the raw data sheet, written anew (its sheet properties, views, column widths and page
 * margins kept; the header row and the rows from A1), and the workbook part, set to recalculate on
 * open (`calcPr fullCalcOnLoad`). The calculation chain, when there is one, is dropped (with its
 * content type and relationship) since it lists the formulas' cells as they were. Formulas, charts,
 * pivot tables, other sheets and styles stay as the customer made them.
 */

/** The most rows a worksheet holds (Excel's limit), the header included. */
export const XLSX_MAX_ROWS = 1_048_576;

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

// Characters XML 1.0 does not allow (controls other than tab, LF, CR; lone surrogates; U+FFFE/FFFF).
const INVALID_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export const escapeXml = (s: string): string =>
  s.replace(INVALID_XML, '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The column letters of a 0-based index (0 → A, 26 → AA). */
export function columnName(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** One row of SheetML: numbers as numbers, text as inline strings, empty cells left out. */
export function sheetRow(rowNumber: number, cells: readonly Cell[], columns: readonly string[], style = 0): string {
  let xml = `<row r="${rowNumber}">`;
  const s = style ? ` s="${style}"` : '';
  for (let i = 0; i < cells.length; i++) {
    const v = cells[i];
    if (v === null || v === undefined || v === '') continue;
    const ref = `${columns[i] ?? columnName(i)}${rowNumber}`;
    if (typeof v === 'number') {
      if (Number.isFinite(v)) xml += `<c r="${ref}"${s}><v>${v}</v></c>`;
      continue;
    }
    const space = /^\s|\s$/.test(v) ? ' xml:space="preserve"' : '';
    xml += `<c r="${ref}"${s} t="inlineStr"><is><t${space}>${escapeXml(v)}</t></is></c>`;
  }
  return xml + '</row>';
}

/** Writes the rows of one worksheet part into an open ZIP entry. */
function sheetDataWriter(entry: ReturnType<ZipWriter['entry']>, headerStyle: number) {
  let row = 0;
  let columns: string[] = [];
  return {
    async header(labels: readonly string[]) {
      columns = labels.map((_, i) => columnName(i));
      row = 1;
      await entry.write(sheetRow(1, labels, columns, headerStyle));
    },
    async rows(rows: readonly (readonly Cell[])[]) {
      if (row + rows.length > XLSX_MAX_ROWS) throw new RangeError('more rows than a worksheet holds');
      let xml = '';
      for (const r of rows) xml += sheetRow(++row, r, columns);
      await entry.write(xml);
    },
  };
}

const CONTENT_TYPES =
  XML_DECL +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
  '</Types>';
const ROOT_RELS =
  XML_DECL +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
  '</Relationships>';
const WORKBOOK_RELS =
  XML_DECL +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
  '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
  '</Relationships>';
/** Two cell formats: 0 plain, 1 bold (the header row). */
const STYLES =
  XML_DECL +
  `<styleSheet xmlns="${MAIN_NS}">` +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

/** A workbook of one sheet (`sheetName`) with a bold, frozen header row. */
export function xlsxWriter(out: Writable, opts: { sheetName: string; now?: Date }): ExportFileWriter {
  const zip = new ZipWriter(out, opts.now);
  let entry: ReturnType<ZipWriter['entry']> | null = null;
  let data: ReturnType<typeof sheetDataWriter> | null = null;
  const workbook =
    XML_DECL +
    `<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>` +
    `<sheet name="${escapeXml(opts.sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`;
  return {
    async header(labels) {
      await zip.add('[Content_Types].xml', Buffer.from(CONTENT_TYPES));
      await zip.add('_rels/.rels', Buffer.from(ROOT_RELS));
      await zip.add('xl/workbook.xml', Buffer.from(workbook));
      await zip.add('xl/_rels/workbook.xml.rels', Buffer.from(WORKBOOK_RELS));
      await zip.add('xl/styles.xml', Buffer.from(STYLES));
      entry = zip.entry('xl/worksheets/sheet1.xml');
      await entry.write(
        XML_DECL +
          `<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
          '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
          '<sheetData>',
      );
      data = sheetDataWriter(entry, 1);
      await data.header(labels);
    },
    async rows(rows) {
      await data!.rows(rows);
    },
    async close() {
      await entry!.write('</sheetData></worksheet>');
      await entry!.end();
      await zip.finish();
      await endStream(out);
    },
  };
}

// ---------------------------------------------------------------- templates

/** Elements of the raw sheet kept from the template (before and after its data). */
const KEPT_BEFORE = ['sheetPr', 'sheetViews', 'sheetFormatPr', 'cols'];
const KEPT_AFTER = ['printOptions', 'pageMargins', 'pageSetup', 'headerFooter'];

/** An element (self-closing or with content) of this local name, with its prefix, or ''. */
function element(xml: string, prefix: string, local: string): string {
  const name = `${prefix}${local}`;
  const m = new RegExp(`<${name}(?:\\s[^>]*)?(?:/>|>[\\s\\S]*?</${name}>)`).exec(xml);
  return m?.[0] ?? '';
}

/**
 * The raw sheet's new beginning and end around its rows, from the template's part: the root element
 * as written (its namespaces), the kept elements, and the sheetData element's tags (in the main
 * namespace even where the template names it with a prefix, since the rows are written without one).
 */
export function rawSheetFrame(original: string): { head: string; tail: string } {
  const root = /<([A-Za-z_][\w.-]*:)?worksheet\b[^>]*>/.exec(original);
  if (!root) {
    return {
      head: `${XML_DECL}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetData>`,
      tail: '</sheetData></worksheet>',
    };
  }
  const prefix = root[1] ?? '';
  const ns = prefix
    ? (new RegExp(`xmlns:${prefix.slice(0, -1)}\\s*=\\s*["']([^"']*)["']`).exec(root[0])?.[1] ?? MAIN_NS)
    : null;
  const decl = /^\uFEFF?<\?xml[^>]*\?>\s*/.exec(original)?.[0]?.replace(/^\uFEFF/, '') ?? XML_DECL;
  const open = new RegExp(`<${prefix}sheetData\\b[^>]*?(/?)>`).exec(original);
  let before = original;
  let after = '';
  if (open) {
    before = original.slice(0, open.index);
    const close = `</${prefix}sheetData>`;
    const end = open[1] ? open.index + open[0].length : original.indexOf(close, open.index);
    after = end < 0 ? '' : original.slice(open[1] ? end : end + close.length);
  }
  const sheetData = ns ? `<sheetData xmlns="${escapeXml(ns)}">` : '<sheetData>';
  return {
    head: decl + root[0] + KEPT_BEFORE.map((l) => element(before, prefix, l)).join('') + sheetData,
    tail: '</sheetData>' + KEPT_AFTER.map((l) => element(after, prefix, l)).join('') + `</${prefix}worksheet>`,
  };
}

/** The workbook part set to recalculate every formula when opened. */
export function recalculateOnLoad(workbook: string): string {
  const root = /<([A-Za-z_][\w.-]*:)?workbook\b/.exec(workbook);
  const prefix = root?.[1] ?? '';
  const calc = new RegExp(`<${prefix}calcPr\\b([^>]*?)(/?)>`);
  const m = calc.exec(workbook);
  if (m) {
    const attrs = m[1]!.replace(/\s+fullCalcOnLoad\s*=\s*("[^"]*"|'[^']*')/, '');
    return workbook.replace(calc, `<${prefix}calcPr${attrs} fullCalcOnLoad="1"${m[2]}>`);
  }
  // calcPr comes after definedNames and before these (ECMA-376 CT_Workbook order).
  const later = ['oleSize', 'customWorkbookViews', 'pivotCaches', 'smartTagPr', 'smartTagTypes', 'webPublishing']
    .concat(['fileRecoveryPr', 'webPublishObjects', 'extLst'])
    .map((l) => `<${prefix}${l}\\b`)
    .concat([`</${prefix}workbook>`]);
  const at = workbook.search(new RegExp(later.join('|')));
  const tag = `<${prefix}calcPr fullCalcOnLoad="1"/>`;
  return at < 0 ? workbook : workbook.slice(0, at) + tag + workbook.slice(at);
}

/** `xml` without the start tags (self-closing) matching `test`. */
const withoutTags = (xml: string, local: string, test: (tag: string) => boolean): string =>
  xml.replace(new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${local}\\b[^>]*/>`, 'g'), (t) => (test(t) ? '' : t));

/**
 * A template's workbook with its raw data sheet filled. `template` is the uploaded file (read once,
 * at most EXPORT_TEMPLATE_MAX_BYTES); the rows stream into the new sheet part.
 */
export function templateXlsxWriter(out: Writable, template: Buffer, opts: { now?: Date } = {}): ExportFileWriter {
  const book: TemplateWorkbook = readTemplate(template);
  const zip = new ZipWriter(out, opts.now);
  const byName = new Map(book.entries.map((e) => [e.name, e]));
  let entry: ReturnType<ZipWriter['entry']> | null = null;
  let data: ReturnType<typeof sheetDataWriter> | null = null;
  let tail = '';
  const text = (name: string) => entryData(template, byName.get(name)!).toString('utf8');

  /** The parts before the raw sheet, the parts after it; each copied or rewritten. */
  async function copyParts(which: 'before' | 'after'): Promise<void> {
    const rawIndex = book.entries.findIndex((e) => e.name === book.rawSheetPath);
    const list = which === 'before' ? book.entries.slice(0, rawIndex) : book.entries.slice(rawIndex + 1);
    for (const e of list) {
      if (e.name === book.calcChainPath) continue;
      if (e.name === book.workbookPath) {
        await zip.add(e.name, Buffer.from(recalculateOnLoad(text(e.name))));
      } else if (book.calcChainPath && e.name === '[Content_Types].xml') {
        const part = `/${book.calcChainPath}`;
        await zip.add(e.name, Buffer.from(withoutTags(text(e.name), 'Override', (t) => t.includes(`"${part}"`))));
      } else if (book.calcChainPath && e.name === book.workbookRelsPath) {
        await zip.add(e.name, Buffer.from(withoutTags(text(e.name), 'Relationship', (t) => /\/calcChain"/.test(t))));
      } else {
        await zip.copy(e, rawData(template, e));
      }
    }
  }

  return {
    async header(labels) {
      await copyParts('before');
      const frame = rawSheetFrame(text(book.rawSheetPath));
      tail = frame.tail;
      entry = zip.entry(book.rawSheetPath);
      await entry.write(frame.head);
      data = sheetDataWriter(entry, 0);
      await data.header(labels);
    },
    async rows(rows) {
      await data!.rows(rows);
    },
    async close() {
      await entry!.write(tail);
      await entry!.end();
      await copyParts('after');
      await zip.finish();
      await endStream(out);
    },
  };
}
