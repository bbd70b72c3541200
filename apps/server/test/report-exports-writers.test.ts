import { Writable } from 'node:stream';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { csvWriter } from '../src/modules/report-exports/csv-writer.ts';
import { exportTexts, valuesInWords } from '../src/modules/report-exports/export-texts.ts';
import type { Cell, ExportFileWriter } from '../src/modules/report-exports/file-writer.ts';
import { readTemplate, TemplateProblem } from '../src/modules/report-exports/template-reader.ts';
import { templateXlsxWriter, xlsxWriter } from '../src/modules/report-exports/xlsx-writer.ts';
import { makeTemplate, parseCsv, sheetRows, SUMMARY_STRINGS, unzip, xlsxSheet, zipOf } from './export-fixtures.ts';

/**
 * The export file writers (docs/api-reports.md "Exports"), read back with a reader written apart
 * from the server's ZIP code: CSV in UTF-8 and Shift_JIS, Excel alone and in a customer's template.
 */

/** A stream into memory with a small buffer, so the writers meet back-pressure. */
function sink(): { out: Writable; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  const out = new Writable({
    highWaterMark: 256,
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk);
      setImmediate(done);
    },
  });
  return { out, bytes: () => Buffer.concat(chunks) };
}

async function write(w: ExportFileWriter, header: string[], pages: Cell[][][]): Promise<void> {
  await w.header(header);
  for (const p of pages) await w.rows(p);
  await w.close();
}

const HEADER = ['レポートID', '建物', 'メッセージ', '値'];
const ROWS: Cell[][] = [
  [1, '本社ビル', '巡回完了', '{"温度":21.5}'],
  [2, 'Tower "A", East', 'line 1\nline 2', null],
  [3, '倉庫', '=HYPERLINK("http://x")', '-5 °C'],
  [4, '～〜①㈱', '😀 emoji', '-x'],
];

describe('CSV', () => {
  it('writes UTF-8 with a byte order mark, RFC 4180 quoting and CRLF lines', async () => {
    const s = sink();
    await write(csvWriter(s.out, 'utf-8'), HEADER, [ROWS.slice(0, 2), ROWS.slice(2)]);
    const bytes = s.bytes();
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text).toContain('"Tower ""A"", East","line 1\nline 2",');
    expect(parseCsv(text)).toEqual([
      HEADER,
      ['1', '本社ビル', '巡回完了', '{"温度":21.5}'],
      ['2', 'Tower "A", East', 'line 1\nline 2', ''],
      // A text that a spreadsheet would run as a formula is kept as text.
      ['3', '倉庫', `'=HYPERLINK("http://x")`, '-5 °C'],
      ['4', '～〜①㈱', '😀 emoji', "'-x"],
    ]);
  });

  it('writes Shift_JIS: Japanese text round-trips, what it cannot encode becomes ?', async () => {
    const s = sink();
    await write(csvWriter(s.out, 'shift-jis'), HEADER, [ROWS]);
    const bytes = s.bytes();
    expect(bytes[0]).not.toBe(0xef);
    // 本社ビル in Shift_JIS.
    expect(bytes.includes(Buffer.from([0x96, 0x7b, 0x8e, 0xd0, 0x83, 0x72, 0x83, 0x8b]))).toBe(true);
    const records = parseCsv(iconv.decode(bytes, 'Shift_JIS'));
    expect(records[0]).toEqual(HEADER);
    expect(records[1]).toEqual(['1', '本社ビル', '巡回完了', '{"温度":21.5}']);
    // The wave dash is written as the Windows code point Excel reads; an emoji has no Shift_JIS code.
    expect(records[4]).toEqual(['4', '～～①㈱', '? emoji', "'-x"]);
  });
});

describe('Excel', () => {
  it('writes a workbook of one sheet: header, numbers as numbers, text as inline strings', async () => {
    const s = sink();
    const many: Cell[][] = Array.from({ length: 3000 }, (_, i) => [i + 10, `行 ${i} & <tag>`, ' spaced ', null]);
    await write(xlsxWriter(s.out, { sheetName: 'RawData' }), HEADER, [ROWS, many.slice(0, 1500), many.slice(1500)]);
    const { parts } = unzip(s.bytes());
    expect([...parts.keys()]).toContain('xl/styles.xml');
    const rows = xlsxSheet(s.bytes(), 'RawData');
    expect(rows[0]).toEqual(HEADER);
    expect(rows[1]).toEqual([1, '本社ビル', '巡回完了', '{"温度":21.5}']);
    expect(rows[2]).toEqual([2, 'Tower "A", East', 'line 1\nline 2']);
    expect(rows[4]).toEqual([4, '～〜①㈱', '😀 emoji', '-x']);
    expect(rows).toHaveLength(1 + ROWS.length + many.length);
    expect(rows.at(-1)).toEqual([3009, '行 2999 & <tag>', ' spaced ']);
    expect(parts.get('xl/worksheets/sheet1.xml')!.toString()).toContain('<t xml:space="preserve"> spaced </t>');
  });

  it('fills a template: every other part byte for byte, the raw sheet anew, recalculation on open', async () => {
    const template = makeTemplate();
    const s = sink();
    await write(templateXlsxWriter(s.out, template), HEADER, [ROWS]);
    const before = unzip(template);
    const after = unzip(s.bytes());

    const rewritten = new Set([
      'xl/workbook.xml',
      'xl/worksheets/sheet2.xml',
      '[Content_Types].xml',
      'xl/_rels/workbook.xml.rels',
      'xl/calcChain.xml',
    ]);
    const kept = before.order.filter((n) => !rewritten.has(n));
    expect(kept).toEqual(
      expect.arrayContaining(['xl/worksheets/sheet1.xml', 'xl/charts/chart1.xml', 'xl/drawings/drawing1.xml']),
    );
    for (const name of kept) {
      // The compressed bytes themselves are copied.
      expect(after.raw.get(name), name).toEqual(before.raw.get(name));
    }
    expect(after.order).toEqual(before.order.filter((n) => n !== 'xl/calcChain.xml'));

    const workbook = after.parts.get('xl/workbook.xml')!.toString();
    expect(workbook).toContain('<calcPr calcId="191029" fullCalcOnLoad="1"/>');
    expect(after.parts.get('[Content_Types].xml')!.toString()).not.toContain('calcChain');
    expect(after.parts.get('xl/_rels/workbook.xml.rels')!.toString()).not.toContain('calcChain');

    const raw = after.parts.get('xl/worksheets/sheet2.xml')!.toString();
    expect(raw).toContain('<cols><col min="1" max="1" width="12" customWidth="1"/></cols>');
    expect(raw).toContain('state="frozen"');
    expect(raw).toContain('<pageMargins');
    expect(raw).not.toContain('placeholder');
    expect(raw).not.toContain('mergeCell');
    expect(raw).not.toContain('<dimension');
    expect(sheetRows(raw)).toEqual([HEADER, ...ROWS.map((r) => (r.at(-1) === null ? r.slice(0, -1) : r))]);
    // The Summary sheet still reads its shared strings and its formulas.
    const summary = sheetRows(after.parts.get('xl/worksheets/sheet1.xml')!.toString(), SUMMARY_STRINGS);
    expect(summary[0]).toEqual(['巡回レポート集計']);
    expect(after.parts.get('xl/worksheets/sheet1.xml')!.toString()).toContain('<f>COUNTA(RawData!A:A)-1</f>');
  });

  it('keeps the content types and relationships of a template without a calculation chain byte for byte', async () => {
    const template = makeTemplate({ noCalcChain: true, store: true, rawSheetName: '生データ' });
    const s = sink();
    await write(templateXlsxWriter(s.out, template), HEADER, [ROWS]);
    const before = unzip(template);
    const after = unzip(s.bytes());
    for (const name of ['[Content_Types].xml', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml'])
      expect(after.raw.get(name), name).toEqual(before.raw.get(name));
    expect(after.parts.get('xl/workbook.xml')!.toString()).toContain('fullCalcOnLoad="1"');
    expect(xlsxSheet(s.bytes(), '生データ')[0]).toEqual(HEADER);
  });
});

describe('templates', () => {
  it('names the sheets and the raw data sheet', () => {
    const t = readTemplate(makeTemplate({ rawSheetName: 'Raw Data' }));
    expect(t.sheetNames).toEqual(['Summary', 'Raw Data']);
    expect(t.rawSheetName).toBe('Raw Data');
    expect(t.rawSheetPath).toBe('xl/worksheets/sheet2.xml');
    expect(t.calcChainPath).toBe('xl/calcChain.xml');
  });

  it.each([
    ['not a zip', Buffer.from('hello, not a workbook')],
    ['an empty file', Buffer.alloc(0)],
    ['a zip that is not a workbook', zipOf([['readme.txt', 'hello']])],
    ['a truncated workbook', makeTemplate().subarray(0, 400)],
  ])('refuses %s as not an .xlsx', (_, bytes) => {
    expect(() => readTemplate(bytes)).toThrow(TemplateProblem);
    try {
      readTemplate(bytes);
    } catch (err) {
      expect((err as TemplateProblem).key).toBe('reportValidation.notXlsx');
    }
  });

  it('refuses a workbook without a raw data sheet', () => {
    expect(() => readTemplate(makeTemplate({ rawSheetName: 'Data' }))).toThrow(
      expect.objectContaining({ key: 'reportValidation.rawSheetMissing' }),
    );
  });
});

describe('values in words', () => {
  it('writes a meter reading as the report screen does: item name, reading with its unit, QR code, log line', () => {
    const meter = {
      checkItemId: 7,
      checkItemName: 'Boiler gauge',
      value: 93.4,
      unit: 'kPa',
      qr: 'GAUGE-1',
      result: 1,
      errorCode: null,
      breachLogId: 12,
      camera: 'v1',
    };
    expect(valuesInWords(exportTexts('en'), meter)).toBe(
      'Check item: Boiler gauge, Reading: 93.4 kPa, QR code: GAUGE-1, Threshold log: #12, Camera: Front',
    );
    expect(valuesInWords(exportTexts('ja'), meter)).toBe(
      '点検項目: Boiler gauge, 読み取り値: 93.4 kPa, QRコード: GAUGE-1, しきい値ログ: #12, カメラ: 前方',
    );
    // Nothing read: no value, so the unit stands alone; the item's id when its name is missing.
    expect(valuesInWords(exportTexts('en'), { checkItemId: 7, value: null, unit: 'kPa', result: 9 })).toBe(
      'Check item: 7, unit: kPa',
    );
  });
});
