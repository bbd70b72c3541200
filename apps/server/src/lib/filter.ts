import { sql, type ExpressionBuilder, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import {
  FILTER_DEFAULT_LIMIT,
  FILTER_MAX_LIMIT,
  filterShapeSchema,
  whereOperators,
  type ErrorDetail,
  type WhereOperator,
} from '@portal/contract';
import type { Database } from '../db/schema.ts';
import { AppError } from './errors.ts';

/**
 * The LoopBack-style `filter` query parameter (docs/architecture-decisions.md "API"): parsed, checked against a
 * per-resource allow-list and turned into parameterised SQL with Kysely. Column names in the SQL
 * come only from the allow-list; values only travel as parameters.
 *
 * Semantics:
 * - `where: { field: value }` is `eq`; `{ field: { op: value, op2: value2 } }` ANDs the operators;
 *   `and` / `or` take arrays of where objects (empty `and` is true, empty `or` is false).
 * - `eq: null` is `is null`, `neq: null` is `is not null`; other operators refuse null.
 * - `inq: []` matches nothing, `nin: []` matches everything.
 * - `like` takes the pattern as given (`%` and `_` are wildcards) on text and date fields and ignores
 *   case, the same on SQLite and PostgreSQL (`ilike`; SQLite's `like`). A backslash is refused because
 *   PostgreSQL treats it as an escape character and SQLite does not.
 * - Dates are ISO-8601 strings (`2024-05-01`, `2024-05-01T09:00:00+09:00`; no offset means UTC),
 *   normalised to the stored form `YYYY-MM-DDTHH:mm:ss.sssZ` so text comparison is time order.
 * - Booleans are `true`/`false` or `0`/`1`, stored as 0/1.
 * - `order`: `"field [ASC|DESC]"`, comma separated or an array; `id` is appended as a tiebreak.
 * - `fields`: an array of names, or `{ name: true }` (only those) / `{ name: false }` (all but those).
 */

export type FilterFieldType = 'number' | 'integer' | 'string' | 'boolean' | 'date';

export interface FilterField<TB extends keyof Database = keyof Database> {
  /** The column in `table` (snake_case). */
  column: Extract<keyof Database[TB], string>;
  /**
   * `integer` checks whole numbers within 32 bits (PostgreSQL `integer` columns would fail on
   * anything else); `number` accepts finite numbers within the range of PostgreSQL `real`
   * (|x| ≤ 3.4e38, and 0 or |x| ≥ 1e-37).
   */
  type: FilterFieldType;
}

export interface ResourceFilterSpec<TB extends keyof Database> {
  table: TB;
  /** API name (camelCase) → column and type. Only these can appear in where, order and fields. */
  fields: Record<string, FilterField<TB>>;
  /** Used when the filter has no `order`, e.g. `'updatedAt DESC'`. */
  defaultOrder: string;
  /** Relation names `include` may name. */
  includes?: readonly string[];
  defaultLimit?: number;
  maxLimit?: number;
}

export type ComparisonOp = '=' | '<>' | '>' | '>=' | '<' | '<=' | 'in' | 'not in' | 'like' | 'is' | 'is not';
export type SqlValue = string | number | null;

export type WhereNode =
  | { kind: 'and'; children: WhereNode[] }
  | { kind: 'or'; children: WhereNode[] }
  /** `column` is qualified with the table (`buildings.status`). */
  | {
      kind: 'compare';
      column: string;
      op: ComparisonOp;
      value: SqlValue | SqlValue[];
      /** A `like` whose pattern has no letter with a case (see `caseless`): case cannot matter. */
      caseless?: true;
    }
  | { kind: 'between'; column: string; from: string | number; to: string | number };

export interface OrderItem {
  /** Qualified with the table (`buildings.updated_at`). */
  column: string;
  dir: 'asc' | 'desc';
}

export interface ParsedFilter {
  where: WhereNode | null;
  order: OrderItem[];
  /** Selected fields as (unqualified) columns, in the spec's field order; null = all. */
  columns: string[] | null;
  /** Selected fields as API names, in the spec's field order; null = all. */
  fields: string[] | null;
  include: string[];
  limit: number;
  skip: number;
}

export const FILTER_MAX_LENGTH = 10_000;
export const FILTER_MAX_DEPTH = 5;
export const FILTER_MAX_CONDITIONS = 50;
export const FILTER_MAX_LIST = 200;

const MAX_DETAILS = 20;
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;
const REAL_MAX = 3.4e38;
const REAL_MIN = 1e-37;

type AnySpec = ResourceFilterSpec<keyof Database>;

/** Thrown inside the parser to stop at once (limits); turned into the one BAD_FILTER error. */
class StopParsing extends Error {}

class Issues {
  readonly list: ErrorDetail[] = [];
  add(path: string, message: string): void {
    if (this.list.length < MAX_DETAILS) this.list.push({ path, message });
  }
  stop(path: string, message: string): never {
    this.add(path, message);
    throw new StopParsing(message);
  }
}

const badFilter = (details: ErrorDetail[]) =>
  new AppError('BAD_FILTER', `Invalid filter: ${details[0]?.message ?? 'malformed'}`, details);

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

const has = (obj: object, key: string) => Object.prototype.hasOwnProperty.call(obj, key);
const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

/**
 * Parses the raw `filter` query value (a JSON string; undefined or empty means defaults). A plain
 * object is taken as already parsed. Throws `AppError('BAD_FILTER')` with `[{ path, message }]` for
 * anything it does not accept; never another error for any input.
 */
export function parseFilter<TB extends keyof Database>(raw: unknown, spec: ResourceFilterSpec<TB>): ParsedFilter {
  const s = spec as unknown as AnySpec;
  // A list's screens send the same few filters over and over: a filter text already read for this
  // spec is answered from `parsedTexts` (the parse is a pure function of the text and the spec).
  const key = raw === undefined || raw === null ? '' : typeof raw === 'string' ? raw : null;
  const texts = key === null ? undefined : parsedTexts.get(s);
  const known = key === null ? undefined : texts?.get(key);
  if (known) return known;
  const issues = new Issues();
  try {
    const parsed = frozen(parse(raw, s, issues));
    if (key !== null) remember(s, key, parsed);
    return parsed;
  } catch (err) {
    if (err instanceof StopParsing) throw badFilter(issues.list);
    if (err instanceof AppError) throw err;
    // Whatever went wrong, bad input must not become a 500.
    throw badFilter([{ path: '', message: 'The filter could not be read' }]);
  }
}

/**
 * Filters already read, per spec and filter text (`parseFilter`), so a list's request does not parse
 * its JSON and check its shape with zod again (about a twentieth of an uncached list's CPU). Only
 * accepted filters are kept (a refused one is read again and refused again); each is frozen, so no
 * caller can change what later requests get. Bounded per spec: past the bound the oldest goes, and a
 * text of more than `MAX_REMEMBERED_LENGTH` characters is not kept.
 */
const parsedTexts = new WeakMap<AnySpec, Map<string, ParsedFilter>>();
const MAX_REMEMBERED_PER_SPEC = 1000;
const MAX_REMEMBERED_LENGTH = 2000;

function remember(spec: AnySpec, text: string, parsed: ParsedFilter): void {
  if (text.length > MAX_REMEMBERED_LENGTH) return;
  let texts = parsedTexts.get(spec);
  if (!texts) {
    texts = new Map();
    parsedTexts.set(spec, texts);
  }
  if (texts.size >= MAX_REMEMBERED_PER_SPEC) texts.delete(texts.keys().next().value as string);
  texts.set(text, parsed);
}

/** The value with every object and array in it frozen (a parsed filter is plain data). */
function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) frozen(v);
    Object.freeze(value);
  }
  return value;
}

function parse(raw: unknown, spec: AnySpec, issues: Issues): ParsedFilter {
  let input: unknown;
  if (raw === undefined || raw === null || raw === '') input = {};
  else if (typeof raw === 'string') {
    if (raw.length > FILTER_MAX_LENGTH) issues.stop('', `The filter is longer than ${FILTER_MAX_LENGTH} characters`);
    try {
      input = JSON.parse(raw);
    } catch {
      issues.stop('', 'The filter is not valid JSON');
    }
  } else if (Array.isArray(raw)) issues.stop('', 'Give the filter parameter once');
  else input = raw;

  if (!isPlainObject(input)) issues.stop('', `The filter must be a JSON object, not ${describe(input)}`);
  const shape = filterShapeSchema.safeParse(input);
  if (!shape.success) {
    for (const issue of shape.error.issues) issues.add(issue.path.map(String).join('.'), issue.message);
    throw new StopParsing('shape');
  }
  // The shape is right; read the original object (not zod's copy) so no key is lost on the way.
  const f = input as {
    where?: Record<string, unknown>;
    order?: string | string[];
    fields?: string[] | Record<string, boolean>;
    include?: string | Array<string | { relation: string }>;
    limit?: number;
    skip?: number;
  };

  const maxLimit = Math.min(spec.maxLimit ?? FILTER_MAX_LIMIT, FILTER_MAX_LIMIT);
  const limit = f.limit ?? Math.min(spec.defaultLimit ?? FILTER_DEFAULT_LIMIT, maxLimit);
  if (limit > maxLimit) issues.add('limit', `limit must be at most ${maxLimit}`);

  const where = f.where === undefined ? null : parseWhere(f.where, spec, issues);
  const order = f.order === undefined ? defaultOrder(spec) : parseOrder(f.order, 'order', spec, issues);
  const selection = f.fields === undefined ? null : parseFields(f.fields, spec, issues);
  const include = f.include === undefined ? [] : parseInclude(f.include, spec, issues);

  if (issues.list.length > 0) throw new StopParsing('issues');
  return {
    where,
    order,
    columns: selection?.columns ?? null,
    fields: selection?.fields ?? null,
    include,
    limit,
    skip: f.skip ?? 0,
  };
}

// ---------------------------------------------------------------------------------------------
// where

interface WhereState {
  conditions: number;
}

function parseWhere(where: Record<string, unknown>, spec: AnySpec, issues: Issues): WhereNode | null {
  const node = whereObject(where, 'where', 0, { conditions: 0 }, spec, issues);
  return node.kind === 'and' && node.children.length === 0 ? null : node;
}

function countCondition(state: WhereState, path: string, issues: Issues) {
  state.conditions += 1;
  if (state.conditions > FILTER_MAX_CONDITIONS) {
    issues.stop(path, `The filter has more than ${FILTER_MAX_CONDITIONS} conditions`);
  }
}

function whereObject(
  obj: Record<string, unknown>,
  path: string,
  depth: number,
  state: WhereState,
  spec: AnySpec,
  issues: Issues,
): WhereNode {
  const children: WhereNode[] = [];
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    const p = join(path, key);
    if (value === undefined) continue;
    if (key === 'and' || key === 'or') {
      if (depth + 1 > FILTER_MAX_DEPTH) issues.stop(p, `and/or may be nested at most ${FILTER_MAX_DEPTH} levels deep`);
      if (!Array.isArray(value)) {
        issues.add(p, `${key} must be an array of conditions`);
        continue;
      }
      const parts: WhereNode[] = [];
      value.forEach((item, i) => {
        const ip = join(p, i);
        countCondition(state, ip, issues);
        if (!isPlainObject(item)) issues.add(ip, `Each ${key} entry must be an object, not ${describe(item)}`);
        else parts.push(whereObject(item, ip, depth + 1, state, spec, issues));
      });
      children.push({ kind: key, children: parts });
      continue;
    }
    const field = has(spec.fields, key) ? spec.fields[key] : undefined;
    if (!field) {
      issues.add(p, `Unknown field "${key}"`);
      continue;
    }
    children.push(...fieldCondition(value, field, `${String(spec.table)}.${field.column}`, p, state, issues));
  }
  return children.length === 1 ? children[0]! : { kind: 'and', children };
}

function fieldCondition(
  value: unknown,
  field: FilterField,
  column: string,
  path: string,
  state: WhereState,
  issues: Issues,
): WhereNode[] {
  if (!isPlainObject(value)) {
    countCondition(state, path, issues);
    if (Array.isArray(value) || (typeof value === 'object' && value !== null)) {
      issues.add(path, 'A condition must be a value or an object of operators');
      return [];
    }
    const node = operatorCondition('eq', value, field, column, path, issues);
    return node ? [node] : [];
  }
  const ops = Object.keys(value);
  if (ops.length === 0) {
    issues.add(path, 'A condition needs at least one operator');
    return [];
  }
  const nodes: WhereNode[] = [];
  for (const op of ops) {
    const p = join(path, op);
    countCondition(state, p, issues);
    if (!(whereOperators as readonly string[]).includes(op)) {
      issues.add(p, `Unknown operator "${op}" (use one of ${whereOperators.join(', ')})`);
      continue;
    }
    const node = operatorCondition(op as WhereOperator, value[op], field, column, p, issues);
    if (node) nodes.push(node);
  }
  return nodes;
}

const simpleOps = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function operatorCondition(
  op: WhereOperator,
  raw: unknown,
  field: FilterField,
  column: string,
  path: string,
  issues: Issues,
): WhereNode | null {
  switch (op) {
    case 'eq':
    case 'neq': {
      if (raw === null) return { kind: 'compare', column, op: op === 'eq' ? 'is' : 'is not', value: null };
      const v = fieldValue(raw, field, path, issues);
      return v === undefined ? null : { kind: 'compare', column, op: simpleOps[op], value: v };
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const v = fieldValue(raw, field, path, issues);
      return v === undefined ? null : { kind: 'compare', column, op: simpleOps[op], value: v };
    }
    case 'inq':
    case 'nin': {
      if (!Array.isArray(raw)) {
        issues.add(path, `${op} must be an array`);
        return null;
      }
      if (raw.length > FILTER_MAX_LIST) {
        issues.add(path, `${op} takes at most ${FILTER_MAX_LIST} values`);
        return null;
      }
      const values: Array<string | number> = [];
      let ok = true;
      raw.forEach((item, i) => {
        const v = fieldValue(item, field, join(path, i), issues);
        if (v === undefined) ok = false;
        else values.push(v);
      });
      if (!ok) return null;
      // in () is not valid SQL everywhere: an empty list matches nothing (inq) or everything (nin).
      if (values.length === 0) return { kind: op === 'inq' ? 'or' : 'and', children: [] };
      return { kind: 'compare', column, op: op === 'inq' ? 'in' : 'not in', value: [...new Set(values)] };
    }
    case 'between': {
      if (!Array.isArray(raw) || raw.length !== 2) {
        issues.add(path, 'between must be an array of two values');
        return null;
      }
      const from = fieldValue(raw[0], field, join(path, 0), issues);
      const to = fieldValue(raw[1], field, join(path, 1), issues);
      return from === undefined || to === undefined ? null : { kind: 'between', column, from, to };
    }
    case 'like': {
      if (field.type !== 'string' && field.type !== 'date') {
        issues.add(path, 'like applies to text and date fields only');
        return null;
      }
      if (typeof raw !== 'string') {
        issues.add(path, `like must be a string, not ${describe(raw)}`);
        return null;
      }
      if (raw.includes('\\')) {
        issues.add(path, 'A like pattern may not contain a backslash');
        return null;
      }
      if (raw.includes('\u0000')) {
        issues.add(path, 'Text may not contain a NUL character');
        return null;
      }
      return caseless(raw)
        ? { kind: 'compare', column, op: 'like', value: raw, caseless: true }
        : { kind: 'compare', column, op: 'like', value: raw };
    }
  }
}

/**
 * Characters that no letter case can change, and that no other character becomes when lower-cased:
 * ASCII digits, spaces and punctuation (not `_`, which matches one character), the Japanese scripts
 * (kana, ideographs, their punctuation) and full-width digits and punctuation. Kept narrow on purpose:
 * a character outside it counts as having a case.
 */
const CASELESS_PATTERN =
  /^[\u0020-\u0040\u005B-\u005E\u0060\u007B-\u007E\u3000-\u303F\u3041-\u309F\u30A0-\u30FF\u31F0-\u31FF\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\uFF01-\uFF20\uFF3B-\uFF40\uFF5B-\uFF9F]*$/;

/**
 * Whether a `like` pattern holds no character whose case could matter (`CASELESS_PATTERN`): then
 * ignoring case changes nothing, and PostgreSQL may match it with `like` rather than `ilike`, which
 * lower-cases every row's text first (a search for "12" in 10,000 operators: about a third of the
 * time). The same rows either way; SQLite compiles both as its `like`.
 */
export const caseless = (pattern: string): boolean => CASELESS_PATTERN.test(pattern);

/** The value as stored for the field's type, or undefined (with an issue) when it does not fit. */
function fieldValue(raw: unknown, field: FilterField, path: string, issues: Issues): string | number | undefined {
  const wrong = (expected: string) => {
    issues.add(path, `Expected ${expected}, got ${describe(raw)}`);
    return undefined;
  };
  switch (field.type) {
    case 'number':
      if (typeof raw !== 'number' || !Number.isFinite(raw)) return wrong('a number');
      // PostgreSQL `real` columns refuse a parameter out of the 32-bit float range (22003).
      if (raw !== 0 && (Math.abs(raw) > REAL_MAX || Math.abs(raw) < REAL_MIN)) {
        issues.add(path, `Expected a number of at most ${REAL_MAX} and at least ${REAL_MIN} in size (or 0)`);
        return undefined;
      }
      return raw;
    case 'integer':
      return typeof raw === 'number' && Number.isInteger(raw) && raw >= INT32_MIN && raw <= INT32_MAX
        ? raw
        : wrong('a whole number (32-bit)');
    case 'boolean':
      if (raw === true || raw === 1) return 1;
      if (raw === false || raw === 0) return 0;
      return wrong('true, false, 0 or 1');
    case 'string':
      if (typeof raw !== 'string') return wrong('a string');
      if (raw.includes('\u0000')) {
        issues.add(path, 'Text may not contain a NUL character');
        return undefined;
      }
      return raw;
    case 'date': {
      const iso = typeof raw === 'string' ? normaliseDate(raw) : null;
      return iso ?? wrong('an ISO-8601 date such as 2024-05-01 or 2024-05-01T09:00:00Z');
    }
  }
}

const DATE_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z|z)|([+-])(\d{2}):?(\d{2}))?)?$/;

/** ISO-8601 date or date-time → `YYYY-MM-DDTHH:mm:ss.sssZ` (UTC), or null when not a real instant. */
export function normaliseDate(text: string): string | null {
  const m = DATE_PATTERN.exec(text);
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', , sign, oh = '0', om = '0'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  const offsetH = Number(oh);
  const offsetM = Number(om);
  if (month < 1 || month > 12 || day < 1) return null;
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0);
  if (day > daysInMonth || hour > 23 || minute > 59 || second > 59 || offsetH > 23 || offsetM > 59) return null;
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, ms);
  const offset = (sign === '-' ? -1 : 1) * (offsetH * 60 + offsetM);
  const instant = new Date(utc.getTime() - offset * 60_000);
  const out = instant.getUTCFullYear();
  if (Number.isNaN(instant.getTime()) || out < 0 || out > 9999) return null;
  return instant.toISOString();
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

// ---------------------------------------------------------------------------------------------
// order, fields, include

const ORDER_PATTERN = /^([A-Za-z_][A-Za-z0-9_]*)(?:\s+(asc|desc))?$/i;

function parseOrder(order: string | string[], path: string, spec: AnySpec, issues: Issues): OrderItem[] {
  const entries = (Array.isArray(order) ? order : [order]).flatMap((o, i) =>
    o.split(',').map((part) => ({ text: part.trim(), path: Array.isArray(order) ? join(path, i) : path })),
  );
  if (entries.length > 10) issues.stop(path, 'order takes at most 10 fields');
  const items: OrderItem[] = [];
  for (const entry of entries) {
    const m = ORDER_PATTERN.exec(entry.text);
    if (!m) {
      const bad = /^\S+\s+(\S+)$/.exec(entry.text);
      issues.add(
        entry.path,
        bad ? `Order direction must be ASC or DESC, not "${bad[1]}"` : `Order must be "field ASC" or "field DESC"`,
      );
      continue;
    }
    const name = m[1]!;
    const field = has(spec.fields, name) ? spec.fields[name] : undefined;
    if (!field) {
      issues.add(entry.path, `Unknown field "${name}"`);
      continue;
    }
    const column = `${String(spec.table)}.${field.column}`;
    if (items.some((it) => it.column === column)) continue;
    items.push({ column, dir: m[2]?.toLowerCase() === 'desc' ? 'desc' : 'asc' });
  }
  return withTiebreak(items, spec);
}

function defaultOrder(spec: AnySpec): OrderItem[] {
  const issues = new Issues();
  const order = parseOrder(spec.defaultOrder, 'defaultOrder', spec, issues);
  if (issues.list.length > 0) {
    throw new Error(`Bad defaultOrder for ${String(spec.table)}: ${issues.list.map((i) => i.message).join('; ')}`);
  }
  return order;
}

/** A unique last key, so pages do not overlap or skip rows when values tie. */
function withTiebreak(items: OrderItem[], spec: AnySpec): OrderItem[] {
  const id = `${String(spec.table)}.id`;
  if (items.some((it) => it.column === id)) return items;
  return [...items, { column: id, dir: items.at(-1)?.dir ?? 'asc' }];
}

function parseFields(
  fields: string[] | Record<string, boolean>,
  spec: AnySpec,
  issues: Issues,
): { fields: string[]; columns: string[] } | null {
  let wanted: Set<string>;
  if (Array.isArray(fields)) {
    fields.forEach((name, i) => {
      if (!has(spec.fields, name)) issues.add(join('fields', i), `Unknown field "${name}"`);
    });
    if (fields.length === 0) return null;
    wanted = new Set(fields);
  } else {
    const names = Object.keys(fields);
    for (const name of names) {
      if (!has(spec.fields, name)) issues.add(join('fields', name), `Unknown field "${name}"`);
    }
    if (names.length === 0) return null;
    const included = names.filter((n) => fields[n] === true);
    wanted =
      included.length > 0
        ? new Set(included)
        : new Set(Object.keys(spec.fields).filter((n) => !(has(fields, n) && fields[n] === false)));
    if (wanted.size === 0) issues.add('fields', 'fields leaves nothing to return');
  }
  const names = Object.keys(spec.fields).filter((n) => wanted.has(n));
  return { fields: names, columns: names.map((n) => spec.fields[n]!.column) };
}

function parseInclude(include: string | Array<string | { relation: string }>, spec: AnySpec, issues: Issues) {
  const allowed = spec.includes ?? [];
  const names: string[] = [];
  (Array.isArray(include) ? include : [include]).forEach((item, i) => {
    const name = typeof item === 'string' ? item : item.relation;
    const path = Array.isArray(include) ? join('include', i) : 'include';
    if (!allowed.includes(name)) {
      issues.add(
        path,
        allowed.length > 0 ? `Unknown relation "${name}" (use ${allowed.join(', ')})` : `Unknown relation "${name}"`,
      );
    } else if (!names.includes(name)) names.push(name);
  });
  return names;
}

// ---------------------------------------------------------------------------------------------
// SQL

/** The where node as a Kysely expression (parameterised; column names from the allow-list). */
export function whereExpression<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  node: WhereNode,
): Expression<SqlBool> {
  switch (node.kind) {
    case 'and':
      return eb.and(node.children.map((c) => whereExpression(eb, c)));
    case 'or':
      return eb.or(node.children.map((c) => whereExpression(eb, c)));
    case 'between':
      return eb.between(sql.ref(node.column), node.from, node.to);
    case 'compare':
      // Search ignores case on every database: `ilike`, which the SQLite dialect compiles as its
      // `like` (db/sqlite-dialect.ts), so the pattern stays usable by either engine as it is. A
      // pattern without a cased letter (`caseless`: digits, kana, kanji) is a plain `like`, the same
      // rows at a fraction of PostgreSQL's cost.
      if (node.op === 'like') return eb(sql.ref(node.column), node.caseless ? 'like' : 'ilike', node.value);
      return eb(sql.ref(node.column), node.op, node.value);
  }
}

/** Adds the filter's where to the query (nothing when null). */
export function applyWhere<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  where: WhereNode | null,
): SelectQueryBuilder<DB, TB, O> {
  return where ? qb.where((eb) => whereExpression(eb, where)) : qb;
}

/** Adds the filter's order (which ends with the `id` tiebreak). */
export function applyOrder<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  order: readonly OrderItem[],
): SelectQueryBuilder<DB, TB, O> {
  return order.reduce((q, item) => q.orderBy(sql.ref(item.column), item.dir), qb);
}

/** where, order, limit and offset in one call. */
export function applyFilter<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  filter: ParsedFilter,
): SelectQueryBuilder<DB, TB, O> {
  return applyOrder(applyWhere(qb, filter.where), filter.order).limit(filter.limit).offset(filter.skip);
}

/** `count(*)` of a list's rows as `n`: the scope's query with the filter's where (no order, no paging). */
export function countOf<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  where: WhereNode | null,
): SelectQueryBuilder<DB, TB, { n: number | string }> {
  // The selection type of a generic table does not resolve; the row is `{ n }` (a string on PostgreSQL).
  return applyWhere(qb, where).select(sql<number | string>`count(*)`.as('n')) as never;
}

/**
 * One page of a list and the total its where matches, in one statement: the total rides along as an
 * uncorrelated scalar subquery, which SQLite and PostgreSQL compute once per statement. So a list
 * costs one round trip, not two; only an empty page past the first asks for its total apart.
 * `page` is the scoped query with its selection and `applyFilter`; `count` is `countOf(scoped, where)`.
 */
export async function pageWithTotal<DB, TB extends keyof DB, R, CDB, CTB extends keyof CDB>(
  page: SelectQueryBuilder<DB, TB, R>,
  count: SelectQueryBuilder<CDB, CTB, { n: number | string }>,
  skip: number,
): Promise<{ rows: R[]; total: number }> {
  const found = (await page.select(count.as('list_total') as never).execute()) as Array<R & { list_total: unknown }>;
  if (found.length === 0) return { rows: [], total: skip === 0 ? 0 : Number((await count.executeTakeFirst())?.n ?? 0) };
  const total = Number(found[0]!.list_total);
  const rows = found.map(({ list_total: _, ...row }) => row as R);
  return { rows, total };
}

/**
 * One page of a list from its scoped query: the rows the filter asks for (`select` names their
 * columns) and the total of the filter's where, in one statement (`pageWithTotal`).
 */
export function filteredPage<DB, TB extends keyof DB, O>(
  scoped: SelectQueryBuilder<DB, TB, object>,
  f: ParsedFilter,
  select: (qb: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
): Promise<{ rows: O[]; total: number }> {
  return pageWithTotal(applyFilter(select(scoped), f), countOf(scoped, f.where), f.skip);
}

type RowMapper = (row: Record<string, unknown>) => Record<string, unknown>;
const rowMappers = new WeakMap<object, Map<string, RowMapper>>();

/**
 * The writer of `toApiRow` for one spec and selection, made once and kept: a list maps every row of
 * every page, so the field walk (names, columns, booleans, the selection) is done once, not per row.
 */
function rowMapper(spec: { fields: Record<string, { column: string; type: string }> }, fields: string[] | null) {
  let bySelection = rowMappers.get(spec);
  if (!bySelection) {
    bySelection = new Map();
    rowMappers.set(spec, bySelection);
  }
  const key = fields ? fields.join(',') : '*';
  let map = bySelection.get(key);
  if (!map) {
    const entries = Object.entries(spec.fields).filter(([name]) => !fields || fields.includes(name));
    map = compiledRowMapper(entries.map(([name, f]) => ({ name, column: f.column, boolean: f.type === 'boolean' })));
    // Selections come from the allow-list, so the kinds of key are few; bound it all the same.
    if (bySelection.size < 100) bySelection.set(key, map);
  }
  return map;
}

/**
 * `(row) => ({ "id": row["id"], "ipRestrictionEnabled": row["ip_restriction_enabled"] === 1 || ..., ... })`:
 * one object literal per row, with its keys in the allow-list's order. (A loop writing
 * `out[names[i]]` made dictionary-mode objects: 42 µs to map a 50-building page, and 43 µs more to
 * write them as JSON, against 1.7 µs.) Names and columns are written as JSON strings, so none becomes
 * code; `__proto__` is a computed key, so it stays a key.
 */
function compiledRowMapper(fields: Array<{ name: string; column: string; boolean: boolean }>): RowMapper {
  const parts = fields.map(({ name, column, boolean }) => {
    const key = name === '__proto__' ? `[${JSON.stringify(name)}]` : JSON.stringify(name);
    const read = `row[${JSON.stringify(column)}]`;
    return `${key}: ${boolean ? `${read} === 1 || ${read} === true` : read}`;
  });
  return new Function('row', `return { ${parts.join(', ')} };`) as RowMapper;
}

/** A database row as the API shows it: API names, booleans as booleans, only the fields asked for. */
export function toApiRow(
  row: Record<string, unknown>,
  spec: { fields: Record<string, { column: string; type: string }> },
  fields: string[] | null,
): Record<string, unknown> {
  return rowMapper(spec, fields)(row);
}
