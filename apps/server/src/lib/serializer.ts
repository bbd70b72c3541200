import type { $ZodType, $ZodTypeDef } from 'zod/v4/core';

/**
 * Answers as JSON text, compiled once per response schema (docs/decisions/0002-read-caches.md).
 *
 * Checking every answer against its zod schema and then stringifying zod's copy cost a list about a
 * third of its CPU time. The compiled serializer walks the schema once, when the route is
 * registered (writing a function for each object's keys), and then writes an answer straight to text: the keys of each object in the schema's
 * order, nothing the schema does not name (a row's other columns never leak), each value as
 * `JSON.stringify` writes it. The text is the same as `JSON.stringify(schema.parse(value))` for any
 * value the schema accepts. Parts a walk cannot write without zod (transforms, defaults, unions of
 * objects, recursion) are written by zod, as before.
 *
 * With `NODE_ENV=production` that is all. Anywhere else (tests, development) every answer is still
 * checked against its schema as before, and the compiled text is compared with zod's, so the whole
 * test suite proves the two the same.
 */
export const CHECK_RESPONSES = process.env.NODE_ENV !== 'production';

/** Writes a value as JSON text; undefined where `JSON.stringify` leaves the value out. */
type Emit = (value: unknown) => string | undefined;

const json: Emit = (v) => JSON.stringify(v);

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

function compile(schema: $ZodType): Emit {
  const def = defOf(schema);
  if (isPlainLeaf(schema)) return json;
  switch (def.type) {
    case 'nullable': {
      const inner = compile(def.innerType!);
      return (v) => (v === null ? 'null' : inner(v));
    }
    case 'optional': {
      const inner = compile(def.innerType!);
      const emit: Emit = (v) => (v === undefined ? undefined : inner(v));
      // Inside an object a missing key is skipped before its writer is asked: written as `json`.
      if (inner === json) optionalJson.add(emit);
      return emit;
    }
    case 'readonly':
      return compile(def.innerType!);
    case 'array': {
      const item = compile(def.element!);
      return (v) => {
        if (!Array.isArray(v)) return JSON.stringify(v);
        let out = '[';
        for (let i = 0; i < v.length; i++) out += (i === 0 ? '' : ',') + (item(v[i]) ?? 'null');
        return out + ']';
      };
    }
    case 'object': {
      // A catch-all other than "never" keeps keys the shape does not name: zod writes those.
      if (def.catchall && defOf(def.catchall).type !== 'never') break;
      const shape = def.shape ?? {};
      const keys = Object.keys(shape);
      return objectWriter(
        keys,
        keys.map((k) => compile(shape[k]!)),
      );
    }
    case 'record':
      // Every key is kept; plain values are written as they are.
      if (def.valueType && isPlainLeaf(def.valueType)) return json;
      break;
  }
  // Transforms, defaults, pipes, unions of objects, lazy (recursive) schemas and the like: zod writes them.
  const parse = (schema as unknown as { parse(v: unknown): unknown }).parse.bind(schema);
  const emit: Emit = (v) => JSON.stringify(parse(v));
  byZod.add(emit);
  return emit;
}

/** Writers that hand the value to zod. */
const byZod = new WeakSet<Emit>();
/** Optional plain leaves: inside an object, written as `json` once the key is there. */
const optionalJson = new WeakSet<Emit>();

/**
 * The writer of an object: a function written once for its keys, in the schema's order (each key
 * and name written as a JSON string, so no key becomes code). A key whose value is undefined is left
 * out, as `JSON.stringify` does, unless zod writes it (a default fills a missing key); plain values
 * are written by `JSON.stringify` in place, the others by their own writer.
 */
function objectWriter(keys: string[], emits: Emit[]): Emit {
  const lines = keys.map((key, i) => {
    const emit = emits[i]!;
    const plain = emit === json || optionalJson.has(emit);
    const text = plain ? 'JSON.stringify(x)' : `e[${i}](x)`;
    const first = JSON.stringify(`${JSON.stringify(key)}:`);
    const next = JSON.stringify(`,${JSON.stringify(key)}:`);
    const guard = byZod.has(emit) ? '' : 'if (x !== undefined) ';
    return `x = o[${JSON.stringify(key)}]; ${guard}{ t = ${text}; if (t !== undefined) out += (out === '' ? ${first} : ${next}) + t; }`;
  });
  const make = new Function(
    'e',
    `return function write(o) {
      if (typeof o !== 'object' || o === null) return JSON.stringify(o);
      let out = '', x, t;
      ${lines.join('\n      ')}
      return '{' + out + '}';
    };`,
  ) as (e: Emit[]) => Emit;
  return make(emits);
}

const compiled = new WeakMap<object, Emit>();

/** The compiled writer of a schema (compiled on first use, then kept). */
export function compiledSerializer(schema: $ZodType): (value: unknown) => string {
  let emit = compiled.get(schema);
  if (!emit) {
    emit = compile(schema);
    compiled.set(schema, emit);
  }
  const write = emit;
  return (value) => write(value) as string;
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
