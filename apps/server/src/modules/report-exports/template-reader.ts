import { isRawDataSheetName } from '@portal/contract';
import { entryData, readZipDirectory, ZipFormatError, type ZipEntry } from './zip.ts';

/**
 * Reads an export template (an .xlsx a customer uploaded; docs/api-reports.md "Export templates"):
 * its sheets in order, and which one is the raw data sheet the export fills (spec section 5: a
 * template must have one; its name is one of `RAW_DATA_SHEET_NAMES`).
 */

export interface TemplateWorkbook {
  /** The archive's entries in order. */
  entries: ZipEntry[];
  sheetNames: string[];
  /** The raw data sheet's name as written, and its part (`xl/worksheets/sheet2.xml`). */
  rawSheetName: string;
  rawSheetPath: string;
  /** The workbook part (`xl/workbook.xml`) and its relationships part. */
  workbookPath: string;
  workbookRelsPath: string;
  /** The calculation chain part when there is one (dropped by the export: formulas are recalculated on open). */
  calcChainPath: string | null;
}

/** Why an upload is not a usable template: the i18n key of the `file` field's message. */
export class TemplateProblem extends Error {
  constructor(readonly key: 'reportValidation.notXlsx' | 'reportValidation.rawSheetMissing') {
    super(key);
  }
}

export const unescapeXml = (s: string): string =>
  s.replace(/&(#x[0-9a-fA-F]+|#\d+|lt|gt|quot|apos|amp);/g, (_, e: string) => {
    if (e[0] === '#')
      return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' }[e]!;
  });

/** The attributes of one start tag (`<sheet name="a" r:id="rId1"/>`), names with their prefix. */
export function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of tag.matchAll(/([A-Za-z_][\w.:-]*)\s*=\s*("([^"]*)"|'([^']*)')/g))
    out.set(m[1]!, unescapeXml(m[3] ?? m[4] ?? ''));
  return out;
}

/** The start tags of elements with this local name (any prefix). */
const tagsOf = (xml: string, local: string): string[] =>
  [...xml.matchAll(new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${local}\\b[^>]*>`, 'g'))].map((m) => m[0]);

/** A relationship's target as a part name (relative to the source part's folder unless absolute). */
function resolveTarget(sourcePart: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = sourcePart.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

const OFFICE_DOCUMENT = /\/officeDocument$/;
const WORKSHEET = /\/worksheet$/;
const CALC_CHAIN = /\/calcChain$/;

/**
 * Reads a template's structure; throws TemplateProblem when it is not an .xlsx workbook or has no
 * raw data sheet.
 */
export function readTemplate(file: Buffer): TemplateWorkbook {
  let entries: ZipEntry[];
  try {
    entries = readZipDirectory(file);
  } catch (err) {
    if (err instanceof ZipFormatError || err instanceof RangeError)
      throw new TemplateProblem('reportValidation.notXlsx');
    throw err;
  }
  const byName = new Map(entries.map((e) => [e.name, e]));
  const text = (name: string): string | null => {
    const e = byName.get(name);
    if (!e) return null;
    try {
      return entryData(file, e).toString('utf8');
    } catch (err) {
      if (err instanceof ZipFormatError) throw new TemplateProblem('reportValidation.notXlsx');
      throw err;
    }
  };
  const relsOf = (part: string) => {
    const slash = part.lastIndexOf('/');
    return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
  };
  const relationships = (xml: string | null) =>
    (xml ? tagsOf(xml, 'Relationship') : []).map((t) => {
      const a = attributes(t);
      return { id: a.get('Id') ?? '', type: a.get('Type') ?? '', target: a.get('Target') ?? '' };
    });

  const root = relationships(text('_rels/.rels')).find((r) => OFFICE_DOCUMENT.test(r.type));
  const contentTypes = text('[Content_Types].xml');
  if (!root || contentTypes === null || !contentTypes.includes('spreadsheetml')) {
    throw new TemplateProblem('reportValidation.notXlsx');
  }
  const workbookPath = resolveTarget('', root.target);
  const workbook = text(workbookPath);
  if (workbook === null || !/<(?:[\w.-]+:)?workbook\b/.test(workbook))
    throw new TemplateProblem('reportValidation.notXlsx');
  const workbookRelsPath = relsOf(workbookPath);
  const rels = relationships(text(workbookRelsPath));
  const sheets = tagsOf(workbook, 'sheet').map((t) => {
    const a = attributes(t);
    const rid = [...a.entries()].find(([k]) => k === 'r:id' || k.endsWith(':id'))?.[1] ?? '';
    const rel = rels.find((r) => r.id === rid);
    return {
      name: a.get('name') ?? '',
      path: rel && WORKSHEET.test(rel.type) ? resolveTarget(workbookPath, rel.target) : null,
    };
  });
  if (sheets.length === 0) throw new TemplateProblem('reportValidation.notXlsx');
  const raw = sheets.find((s) => isRawDataSheetName(s.name) && s.path !== null && byName.has(s.path));
  if (!raw) throw new TemplateProblem('reportValidation.rawSheetMissing');
  const calcRel = rels.find((r) => CALC_CHAIN.test(r.type));
  const calcChainPath = calcRel ? resolveTarget(workbookPath, calcRel.target) : null;
  return {
    entries,
    sheetNames: sheets.map((s) => s.name),
    rawSheetName: raw.name,
    rawSheetPath: raw.path!,
    workbookPath,
    workbookRelsPath,
    calcChainPath: calcChainPath && byName.has(calcChainPath) ? calcChainPath : null,
  };
}
