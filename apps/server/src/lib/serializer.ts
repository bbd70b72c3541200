import type { $ZodType, $ZodTypeDef } from 'zod/v4/core';

/**
 * Answers as JSON text, compiled once per response schema (docs/decisions/0002-read-caches.md).
 *
 * Checking every answer against its zod schema and then stringifying zod's copy cost a list about a
 * third of its CPU time. The compiled serializer walks the schema once, when the route is
 * registered, and then writes an answer straight to text: the keys of each object in the schema's
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
      return (v) => (v === undefined ? undefined : inner(v));
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
      const names = keys.map((k) => `${JSON.stringify(k)}:`);
      const emits = keys.map((k) => compile(shape[k]!));
      // zod's parts see a missing key too (a default fills it).
      const always = emits.map((e) => byZod.has(e));
      return (v) => {
        if (typeof v !== 'object' || v === null) return JSON.stringify(v);
        const o = v as Record<string, unknown>;
        let out = '{';
        for (let i = 0; i < keys.length; i++) {
          const x = o[keys[i]!];
          if (x === undefined && !always[i]) continue;
          const text = emits[i]!(x);
          if (text === undefined) continue;
          out += (out.length === 1 ? '' : ',') + names[i] + text;
        }
        return out + '}';
      };
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
