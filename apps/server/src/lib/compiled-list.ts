import { sql, type CompiledQuery, type Kysely, type SelectQueryBuilder } from 'kysely';
import { preparedStatement } from '../db/database.ts';
import type { OrderItem, ParsedFilter, WhereNode } from './filter.ts';
import type { TenantScope } from './scope.ts';

/**
 * Lists compiled once per shape (docs/architecture.md "Lists").
 *
 * Building a list's statement with Kysely (query builders, operation nodes, the compiler's walk) cost
 * more CPU per request than the database spent answering it. A list's SQL depends only on its shape:
 * who asks (the scope's kind), the filter's where tree with its operators and list lengths, the
 * order, the selected fields. The values (search text, ids, limit, skip, the caller's organization and
 * building) only fill parameters. So the statement is built and compiled once per shape, with a slot
 * where each value goes, and each request only fills the slots.
 *
 * The statement is the one the repository's `build` writes, compiled by Kysely as always; nothing
 * here writes SQL. A slot stands where a value would, so a value can never become SQL text: the
 * shape key holds no value at all (each one is replaced by its slot number). One exception: the page
 * size (`limit`), a whole number the filter parser has checked (at most the resource's maximum), is
 * written into the statement and is part of the shape (`pageSize`), and so is the first page's
 * `offset 0`.
 */

/** Where a request's value goes in a compiled statement. */
class Slot {
  constructor(readonly index: number) {}
  /** In the shape key: the slot's number, never the value. */
  toJSON(): string {
    return `$${this.index}`;
  }
}

/** The scope and filter with a slot for each value, and the values in slot order. */
interface Slotted {
  scope: TenantScope;
  filter: ParsedFilter;
  values: unknown[];
  key: string;
}

function slotted(scope: TenantScope, f: ParsedFilter): Slotted {
  const values: unknown[] = [];
  const slot = (v: unknown): Slot => {
    values.push(v);
    return new Slot(values.length - 1);
  };
  // null stays as it is: `is null` is written into the SQL, and a null building is `-1` in scopeWhere.
  const value = <T>(v: T): T | Slot => (v === null ? v : slot(v));
  const where = (node: WhereNode): WhereNode => {
    switch (node.kind) {
      case 'and':
      case 'or':
        return { kind: node.kind, children: node.children.map(where) };
      case 'between':
        return { ...node, from: slot(node.from) as never, to: slot(node.to) as never };
      case 'compare':
        return {
          ...node,
          value: (Array.isArray(node.value) ? node.value.map(value) : value(node.value)) as never,
        };
    }
  };
  const scoped: TenantScope = {
    type: scope.type,
    organizationId: slot(scope.organizationId) as never,
    buildingId: value(scope.buildingId) as never,
  };
  const filter: ParsedFilter = {
    ...f,
    where: f.where ? where(f.where) : null,
    limit: pageSize(f.limit) as never,
    // The first page (the one every list screen opens on) is a statement of its own, `offset 0`:
    // with nothing left unknown, PostgreSQL's generic plan is the right one and is kept.
    skip: (f.skip === 0 ? sql.lit(0) : slot(f.skip)) as never,
  };
  const key = JSON.stringify([
    scope.type,
    scope.buildingId === null,
    filter.where,
    filter.order.map((o: OrderItem) => `${o.column} ${o.dir}`),
    filter.columns,
    filter.include,
    f.limit,
    f.skip === 0,
  ]);
  return { scope: scoped, filter, values, key };
}

/**
 * The page size written into the statement (`limit 20`) rather than sent as a parameter. On
 * PostgreSQL a kept statement whose limit is a parameter is planned anew on every run (its generic
 * plan, made without knowing the limit, walks and sorts far more rows, so PostgreSQL keeps custom
 * plans: 0.7 ms of planning per operator page); with the size in the text the generic plan knows
 * it, and PostgreSQL settles on it for pages past the first (`plan_cache_mode=auto`). Only a whole
 * number is written (the parser allows nothing else); a list has a few sizes, each a shape.
 */
function pageSize(limit: number) {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`A page size must be a whole number, not ${limit}`);
  return sql.lit(limit);
}

/** Whether the where has a `like` (a search) anywhere in it. */
const searches = (node: WhereNode | null): boolean =>
  node !== null &&
  (node.kind === 'and' || node.kind === 'or'
    ? node.children.some(searches)
    : node.kind === 'compare' && node.op === 'like');

/** A compiled statement whose parameters are constants and slots. */
interface Template {
  query: CompiledQuery;
  bind(values: readonly unknown[]): CompiledQuery;
}

/**
 * `prepare`: keep the statement prepared on PostgreSQL (db/database.ts `preparedStatement`), as every
 * statement asked on each request of its shape is, except a search's: once prepared, PostgreSQL may
 * settle on a generic plan, made without the search text, and for `ilike $1` that plan reads the
 * trigram indexes (migration 025) whatever the text is. For a text of under three characters (no
 * trigram) that is a walk of the whole index and a recheck of every row: 200 ms instead of 10 for
 * the bench's "12". Unprepared, each search is planned with its own text.
 */
function template(query: CompiledQuery, prepare = true): Template {
  if (prepare) preparedStatement(query.sql);
  const params = query.parameters;
  const slots = params.map((p) => (p instanceof Slot ? p.index : -1));
  return {
    query,
    bind: (values) => ({ ...query, parameters: params.map((p, i) => (slots[i]! >= 0 ? values[slots[i]!] : p)) }),
  };
}

interface CompiledList {
  page: Template;
  count: Template;
}

/** Shapes kept per database; lists have few shapes, but filters come from requests, so bound it. */
const MAX_SHAPES = 500;
const byDatabase = new WeakMap<object, Map<string, CompiledList>>();
const statementsByDatabase = new WeakMap<object, Map<string, Template>>();

/** The compiled shapes of one database (compiled SQL differs per dialect: kept per adapter). */
function shapesOf<T>(all: WeakMap<object, Map<string, T>>, db: Kysely<never>): Map<string, T> {
  const owner = db.getExecutor().adapter;
  let shapes = all.get(owner);
  if (!shapes) {
    shapes = new Map();
    all.set(owner, shapes);
  }
  return shapes;
}

function keep<T>(shapes: Map<string, T>, key: string, value: T): T {
  if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value as string);
  shapes.set(key, value);
  return value;
}

/**
 * A statement asked on (nearly) every request, compiled once per database and `name`, run with
 * each call's values: `build` gets a slot in place of each value (`slots[i]` stands for
 * `values[i]`) and must take every value from them, as a list's `build` does. A slot is always a
 * parameter, so a value never becomes SQL text, and a null value is a null parameter (`= null`
 * matches nothing: compare nullable values with `is` in a statement of their own). The number of
 * values is part of the shape (an `in` list of each length is a statement of its own).
 */
export async function compiledRows<R>(
  db: Kysely<never>,
  name: string,
  values: readonly unknown[],
  build: (slots: unknown[]) => { compile(): CompiledQuery<R> },
): Promise<R[]> {
  const shapes = shapesOf(statementsByDatabase, db);
  const key = `${name}|${values.length}`;
  const compiled =
    shapes.get(key) ??
    keep(shapes, key, template(build(values.map((_, i) => new Slot(i) as never)).compile() as CompiledQuery));
  return (await db.executeQuery(compiled.bind(values))).rows as R[];
}

/** What a list's repository builds: its page (selection, where, order, limit, offset) and its count. */
export interface ListQueries<R> {
  page: SelectQueryBuilder<never, never, R>;
  count: SelectQueryBuilder<never, never, { n: number | string }>;
}

/**
 * One page of a list and the total of its where, in one statement (as `pageWithTotal`), compiled once
 * per shape. `build` gets the scope and filter with slots in place of their values and writes the
 * queries exactly as it would for a request: it must take every value it uses from them (never from
 * elsewhere, or that value would be kept for every later request of the shape). `name` tells one
 * list's shapes from another's.
 */
export async function compiledPage<R>(
  db: Kysely<never>,
  name: string,
  scope: TenantScope,
  f: ParsedFilter,
  build: (scope: TenantScope, f: ParsedFilter) => ListQueries<R>,
): Promise<{ rows: R[]; total: number }> {
  const s = slotted(scope, f);
  const shapes = shapesOf(byDatabase, db);
  const key = `${name}|${s.key}`;
  let compiled = shapes.get(key);
  if (!compiled) {
    const { page, count } = build(s.scope, s.filter);
    const prepare = !searches(f.where);
    compiled = keep(shapes, key, {
      page: template(page.select(count.as('list_total') as never).compile(), prepare),
      count: template(count.compile(), prepare),
    });
  }
  const found = (await db.executeQuery(compiled.page.bind(s.values))).rows as Array<R & { list_total: unknown }>;
  if (found.length === 0) {
    if (f.skip === 0) return { rows: [], total: 0 };
    const counted = (await db.executeQuery(compiled.count.bind(s.values))).rows[0] as { n: unknown } | undefined;
    return { rows: [], total: Number(counted?.n ?? 0) };
  }
  // The rows keep their `list_total` column: copying each row without it cost more than the rest of
  // this function; the mappers (`toApiRow`, the serializers) name the fields they write.
  return { rows: found, total: Number(found[0]!.list_total) };
}
