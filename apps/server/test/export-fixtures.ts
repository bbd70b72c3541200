import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Test fixtures of report exports (also used by `npm run bench:export`): a customer's export template
 * made by hand (a Summary sheet with formulas and shared strings, a chart on a drawing, a RawData
 * sheet, a calculation chain), and a reader of the .xlsx and CSV files the exports write. The reader
 * is written apart from the server's ZIP code (zip.ts), so the tests check the files independently.
 */

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';
const CT = 'http://schemas.openxmlformats.org/package/2006/content-types';
const TYPE = 'application/vnd.openxmlformats-officedocument';

/** A ZIP archive of the parts, deflated (stored when `store`), in order. */
export function zipOf(
  parts: ReadonlyArray<readonly [string, Buffer | string]>,
  opts: { store?: boolean } = {},
): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of parts) {
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const nameBytes = Buffer.from(name, 'utf8');
    const packed = opts.store ? data : deflateRawSync(data);
    const crc = crc32(data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(opts.store ? 0 : 8, 8);
    local.writeUInt16LE(0x6000, 10);
    local.writeUInt16LE(((2026 - 1980) << 9) | (1 << 5) | 1, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(opts.store ? 0 : 8, 10);
    central.writeUInt16LE(0x6000, 12);
    central.writeUInt16LE(((2026 - 1980) << 9) | (1 << 5) | 1, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + packed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/** An archive's entries: name → content, and name → compressed bytes as stored. */
export function unzip(zip: Buffer): { parts: Map<string, Buffer>; raw: Map<string, Buffer>; order: string[] } {
  let eocd = zip.length - 22;
  while (eocd >= 0 && zip.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error('not a zip');
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const parts = new Map<string, Buffer>();
  const raw = new Map<string, Buffer>();
  const order: string[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error('bad central directory');
    const method = zip.readUInt16LE(p + 10);
    const crc = zip.readUInt32LE(p + 16);
    const csize = zip.readUInt32LE(p + 20);
    const size = zip.readUInt32LE(p + 24);
    const n = zip.readUInt16LE(p + 28);
    const x = zip.readUInt16LE(p + 30);
    const c = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.toString('utf8', p + 46, p + 46 + n);
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error(`bad local header of ${name}`);
    if (zip.toString('utf8', local + 30, local + 30 + zip.readUInt16LE(local + 26)) !== name)
      throw new Error(`local name of ${name} differs`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const packed = zip.subarray(start, start + csize);
    const data = method === 0 ? Buffer.from(packed) : inflateRawSync(packed);
    if (data.length !== size || crc32(data) >>> 0 !== crc) throw new Error(`${name}: bad size or CRC`);
    parts.set(name, data);
    raw.set(name, Buffer.from(packed));
    order.push(name);
    p += 46 + n + x + c;
  }
  return { parts, raw, order };
}

const unescape = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** The column index of a cell reference (`C7` → 2). */
const columnOf = (ref: string) => [...ref.replace(/\d+$/, '')].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;

/** A worksheet part's rows as arrays (inline strings and numbers; shared strings by index). */
export function sheetRows(xml: string, shared: string[] = []): Array<Array<string | number | null>> {
  const rows: Array<Array<string | number | null>> = [];
  for (const row of xml.matchAll(/<row\b[^>]*?(?:\/>|>([\s\S]*?)<\/row>)/g)) {
    const cells: Array<string | number | null> = [];
    for (const c of (row[1] ?? '').matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attrs = c[1]!;
      const ref = /\br="([A-Z]+\d+)"/.exec(attrs)?.[1];
      const i = ref ? columnOf(ref) : cells.length;
      const t = /\bt="(\w+)"/.exec(attrs)?.[1];
      const body = c[2] ?? '';
      let v: string | number | null = null;
      if (t === 'inlineStr') v = unescape([...body.matchAll(/<t\b[^>]*>([\s\S]*?)<\/t>/g)].map((m) => m[1]).join(''));
      else if (t === 's') v = shared[Number(/<v>([^<]*)<\/v>/.exec(body)?.[1])] ?? null;
      else if (/<v>/.test(body)) v = Number(/<v>([^<]*)<\/v>/.exec(body)![1]);
      while (cells.length < i) cells.push(null);
      cells[i] = v;
    }
    rows.push(cells);
  }
  return rows;
}

/** The sheets of a workbook by name with their part names (in order). */
export function sheetsOf(parts: Map<string, Buffer>): Array<{ name: string; part: string }> {
  const wb = parts.get('xl/workbook.xml')!.toString('utf8');
  const rels = parts.get('xl/_rels/workbook.xml.rels')!.toString('utf8');
  return [...wb.matchAll(/<sheet\b[^>]*>/g)].map((m) => {
    const name = unescape(/\bname="([^"]*)"/.exec(m[0])![1]!);
    const rid = /\br:id="([^"]*)"/.exec(m[0])![1]!;
    const rel = new RegExp(`<Relationship\\b[^>]*Id="${rid}"[^>]*>`).exec(rels)![0];
    const target = /Target="([^"]*)"/.exec(rel)![1]!;
    return { name, part: target.startsWith('/') ? target.slice(1) : `xl/${target}` };
  });
}

/** The rows of one sheet of an .xlsx file. */
export function xlsxSheet(file: Buffer, sheetName: string): Array<Array<string | number | null>> {
  const { parts } = unzip(file);
  const sheet = sheetsOf(parts).find((s) => s.name === sheetName);
  if (!sheet) throw new Error(`no sheet ${sheetName}`);
  return sheetRows(parts.get(sheet.part)!.toString('utf8'));
}

/** RFC 4180 records of CSV text (quoted fields with commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

export interface TemplateOptions {
  /** The raw data sheet's name (default RawData); another name makes a template without one. */
  rawSheetName?: string;
  /** Leave out the calculation chain. */
  noCalcChain?: boolean;
  /** Store the parts uncompressed. */
  store?: boolean;
}

/** Shared strings of the Summary sheet. */
export const SUMMARY_STRINGS = ['巡回レポート集計', '明細の行数', '写真の枚数'];

/**
 * A customer's workbook: `Summary` (sheet1: shared strings, formulas over the raw data sheet, a chart
 * through a drawing), the raw data sheet (sheet2: a column width, a frozen pane, a placeholder row),
 * a styles part and a calculation chain.
 */
export function makeTemplate(o: TemplateOptions = {}): Buffer {
  const raw = o.rawSheetName ?? 'RawData';
  const calc = !o.noCalcChain;
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  const parts: Array<[string, string]> = [
    [
      '[Content_Types].xml',
      XML +
        `<Types xmlns="${CT}"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        `<Override PartName="/xl/workbook.xml" ContentType="${TYPE}.spreadsheetml.sheet.main+xml"/>` +
        `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${TYPE}.spreadsheetml.worksheet+xml"/>` +
        `<Override PartName="/xl/worksheets/sheet2.xml" ContentType="${TYPE}.spreadsheetml.worksheet+xml"/>` +
        `<Override PartName="/xl/styles.xml" ContentType="${TYPE}.spreadsheetml.styles+xml"/>` +
        `<Override PartName="/xl/sharedStrings.xml" ContentType="${TYPE}.spreadsheetml.sharedStrings+xml"/>` +
        `<Override PartName="/xl/drawings/drawing1.xml" ContentType="${TYPE}.drawing+xml"/>` +
        `<Override PartName="/xl/charts/chart1.xml" ContentType="${TYPE}.drawingml.chart+xml"/>` +
        (calc ? `<Override PartName="/xl/calcChain.xml" ContentType="${TYPE}.spreadsheetml.calcChain+xml"/>` : '') +
        '</Types>',
    ],
    [
      '_rels/.rels',
      XML +
        `<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${R}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      XML +
        `<workbook xmlns="${MAIN}" xmlns:r="${R}"><workbookPr/><bookViews><workbookView/></bookViews><sheets>` +
        `<sheet name="Summary" sheetId="1" r:id="rId1"/><sheet name="${esc(raw)}" sheetId="2" r:id="rId2"/></sheets>` +
        '<calcPr calcId="191029"/></workbook>',
    ],
    [
      'xl/_rels/workbook.xml.rels',
      XML +
        `<Relationships xmlns="${PKG}">` +
        `<Relationship Id="rId1" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId2" Type="${R}/worksheet" Target="worksheets/sheet2.xml"/>` +
        `<Relationship Id="rId3" Type="${R}/styles" Target="styles.xml"/>` +
        `<Relationship Id="rId4" Type="${R}/sharedStrings" Target="sharedStrings.xml"/>` +
        (calc ? `<Relationship Id="rId5" Type="${R}/calcChain" Target="calcChain.xml"/>` : '') +
        '</Relationships>',
    ],
    [
      'xl/worksheets/sheet1.xml',
      XML +
        `<worksheet xmlns="${MAIN}" xmlns:r="${R}"><sheetData>` +
        '<row r="1"><c r="A1" t="s"><v>0</v></c></row>' +
        `<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2"><f>COUNTA(${esc(raw)}!A:A)-1</f><v>0</v></c></row>` +
        `<row r="3"><c r="A3" t="s"><v>2</v></c><c r="B3"><f>COUNTIF(${esc(raw)}!U:U,"?*")-1</f><v>0</v></c></row>` +
        '</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>' +
        '<drawing r:id="rId1"/></worksheet>',
    ],
    [
      'xl/worksheets/_rels/sheet1.xml.rels',
      XML +
        `<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${R}/drawing" Target="../drawings/drawing1.xml"/></Relationships>`,
    ],
    [
      'xl/worksheets/sheet2.xml',
      XML +
        `<worksheet xmlns="${MAIN}" xmlns:r="${R}"><dimension ref="A1:B2"/>` +
        '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
        '<sheetFormatPr defaultRowHeight="15"/><cols><col min="1" max="1" width="12" customWidth="1"/></cols>' +
        '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>placeholder</t></is></c></row>' +
        '<row r="2"><c r="A2"><v>42</v></c></row></sheetData>' +
        '<mergeCells count="1"><mergeCell ref="C1:D1"/></mergeCells>' +
        '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>',
    ],
    [
      'xl/drawings/drawing1.xml',
      XML +
        '<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">' +
        '<xdr:twoCellAnchor><xdr:from><xdr:col>3</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>1</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>' +
        '<xdr:to><xdr:col>9</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>15</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>' +
        '<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="2" name="Chart 1"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr>' +
        '<xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">' +
        `<c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="${R}" r:id="rId1"/></a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor></xdr:wsDr>`,
    ],
    [
      'xl/drawings/_rels/drawing1.xml.rels',
      XML +
        `<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${R}/chart" Target="../charts/chart1.xml"/></Relationships>`,
    ],
    [
      'xl/charts/chart1.xml',
      XML +
        '<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">' +
        '<c:chart><c:plotArea><c:layout/><c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>' +
        `<c:ser><c:idx val="0"/><c:order val="0"/><c:val><c:numRef><c:f>Summary!$B$2:$B$3</c:f></c:numRef></c:val></c:ser>` +
        '<c:axId val="1"/><c:axId val="2"/></c:barChart><c:catAx><c:axId val="1"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:axPos val="b"/><c:crossAx val="2"/></c:catAx>' +
        '<c:valAx><c:axId val="2"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:axPos val="l"/><c:crossAx val="1"/></c:valAx></c:plotArea></c:chart></c:chartSpace>',
    ],
    [
      'xl/styles.xml',
      XML +
        `<styleSheet xmlns="${MAIN}"><fonts count="1"><font><sz val="11"/><name val="游ゴシック"/></font></fonts>` +
        '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
        '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
        '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs></styleSheet>',
    ],
    [
      'xl/sharedStrings.xml',
      XML +
        `<sst xmlns="${MAIN}" count="${SUMMARY_STRINGS.length}" uniqueCount="${SUMMARY_STRINGS.length}">` +
        SUMMARY_STRINGS.map((s) => `<si><t>${s}</t></si>`).join('') +
        '</sst>',
    ],
  ];
  if (calc)
    parts.push(['xl/calcChain.xml', XML + `<calcChain xmlns="${MAIN}"><c r="B2" i="1"/><c r="B3"/></calcChain>`]);
  return zipOf(parts, { store: o.store });
}
