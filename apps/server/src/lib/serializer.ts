import type { $ZodType, $ZodTypeDef } from 'zod/v4/core';

/**
 * Answers as JSON text, compiled once per response schema (docs/decisions/0002-read-caches.md).
 *
 * Checking every answer against its zod schema and then stringifying zod's copy cost a list about a
 * third of its CPU time. The compiled serializer walks the schema once, when the route is
 * registered, and writes for each object of the schema a function that copies exactly the keys the
 * schema names, in its order, into a plain object (a row's other columns never leak); the answer is
 * then that copy written by one `JSON.stringify`, whose native writer is faster than writing each
 * value apart (a 50-building page about a quarter faster than the earlier writer, which joined each
 * value's text). The text is the same as `JSON.stringify(schema.parse(value))` for any value the
 * schema accepts: zod's copy is such a plain object too. Parts a walk cannot copy without zod
 * (transforms, defaults, unions of objects, recursion) are copied by zod, as before.
 *
 * With `NODE_ENV=production` that is all. Anywhere else (tests, development) every answer is still
 * checked against its schema as before, and the compiled text is compared with zod's, so the whole
 * test suite proves the two the same.
 */
export const CHECK_RESPONSES = process.env.NODE_ENV !== 'production';

/** Copies a value as the schema names it, for `JSON.stringify` to write. */
type Copy = (value: unknown) => unknown;

/** A value written as it is (`JSON.stringify` writes it as zod's copy would be written). */
const same: Copy = (v) => v;

/** Schema kinds whose output is their input: written as they are (a check, no change). */
const LEAVES = new Set([
  'string',
  'number',
  'boolean',
  'null',
  'date',
  'enum',
  'literal',
  'any',
  'unknown',
  'template_literal',
]);

type Def = $ZodTypeDef & {
  checks?: Array<{ _zod: { def: { check: string } } }>;
  coerce?: boolean;
  innerType?: $ZodType;
  shape?: Record<string, $ZodType>;
  catchall?: $ZodType;
  element?: $ZodType;
  options?: $ZodType[];
  valueType?: $ZodType;
};

const defOf = (schema: $ZodType) => schema._zod.def as Def;

/** A leaf that zod hands back unchanged (no coercion, no `.trim()`-like overwrite). */
function isPlainLeaf(schema: $ZodType): boolean {
  const def = defOf(schema);
  if (def.type === 'nullable' || def.type === 'readonly') return def.innerType ? isPlainLeaf(def.innerType) : false;
  if (def.type === 'union') return (def.options ?? []).every(isPlainLeaf);
  if (!LEAVES.has(def.type) || def.coerce) return false;
  return !(def.checks ?? []).some((c) => c._zod.def.check === 'overwrite');
}

/** An array as zod copies it: a new array (so an array's own `toJSON`, if any, is not called). */
const arrayCopy = (v: unknown[]) => (typeof (v as { toJSON?: unknown }).toJSON === 'function' ? Array.from(v) : v);

function compile(schema: $ZodType): Copy {
  const def = defOf(schema);
  if (isPlainLeaf(schema)) return same;
  switch (def.type) {
    case 'nullable': {
      const inner = compile(def.innerType!);
      return inner === same ? same : (v) => (v === null ? null : inner(v));
    }
    case 'optional': {
      const inner = compile(def.innerType!);
      return inner === same ? same : (v) => (v === undefined ? undefined : inner(v));
    }
    case 'readonly':
      return compile(def.innerType!);
    case 'array': {
      const item = compile(def.element!);
      if (item === same) return (v) => (Array.isArray(v) ? arrayCopy(v) : v);
      return (v) => {
        if (!Array.isArray(v)) return v;
        const out = new Array<unknown>(v.length);
        for (let i = 0; i < v.length; i++) out[i] = item(v[i]);
        return out;
      };
    }
    case 'object': {
      // A catch-all other than "never" keeps keys the shape does not name: zod copies those.
      if (def.catchall && defOf(def.catchall).type !== 'never') break;
      const shape = def.shape ?? {};
      const keys = Object.keys(shape);
      return objectCopy(
        keys,
        keys.map((k) => compile(shape[k]!)),
      );
    }
    case 'record':
      // Every key is kept; plain values are written as they are.
      if (def.valueType && isPlainLeaf(def.valueType)) return same;
      break;
  }
  // Transforms, defaults, pipes, unions of objects, lazy (recursive) schemas and the like: zod copies them.
  const parse = (schema as unknown as { parse(v: unknown): unknown }).parse.bind(schema);
  return (v) => parse(v);
}

/**
 * The copy of an object: a function written once for its keys, in the schema's order, making an
 * object literal (each key written as a JSON string, so no key becomes code; `__proto__` as a
 * computed key, so it stays a key). A key whose copy is undefined is left out by `JSON.stringify`,
 * as from zod's copy; values written as they are are not wrapped in a call.
 */
function objectCopy(keys: string[], copies: Copy[]): Copy {
  const fields = keys.map((key, i) => {
    const name = key === '__proto__' ? `[${JSON.stringify(key)}]` : JSON.stringify(key);
    const read = `o[${JSON.stringify(key)}]`;
    return `${name}: ${copies[i] === same ? read : `c[${i}](${read})`}`;
  });
  const make = new Function(
    'c',
    `return function copy(o) {
      if (typeof o !== 'object' || o === null) return o;
      return {
        ${fields.join(',\n        ')}
      };
    };`,
  ) as (c: Copy[]) => Copy;
  return make(copies);
}

const compiled = new WeakMap<object, Copy>();

/** The compiled writer of a schema (compiled on first use, then kept). */
export function compiledSerializer(schema: $ZodType): (value: unknown) => string {
  let copy = compiled.get(schema);
  if (!copy) {
    copy = compile(schema);
    compiled.set(schema, copy);
  }
  const write = copy;
  return (value) => JSON.stringify(write(value));
}

/**
 * Outside production: the compiled text must be zod's. `checked` is the answer as zod wrote it (after
 * checking the value against the schema); a difference is a bug of the compiler, thrown as such.
 */
export function sameAsZod(fast: string, checked: string, what: string): string {
  if (fast !== checked) {
    throw new Error(
      `The compiled serializer of ${what} wrote ${fast.slice(0, 300)} where zod wrote ${checked.slice(0, 300)}`,
    );
  }
  return checked;
}

/**
 * The JSON text of a value of the schema: compiled; outside production also checked with zod (a
 * value the schema refuses throws zod's error, as `schema.parse` does).
 */
export function serializerFor(schema: $ZodType): (value: unknown) => string {
  const fast = compiledSerializer(schema);
  if (!CHECK_RESPONSES) return fast;
  const parse = (schema as unknown as { parse(v: unknown): unknown }).parse.bind(schema);
  return (value) => sameAsZod(fast(value), JSON.stringify(parse(value)), 'a list answer');
}
