import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contract from '@portal/contract';
import { buildingListSchema, operatorListSchema } from '@portal/contract';
import { compiledSerializer } from '../src/lib/serializer.ts';

/** What the server wrote before the compiled serializers: zod's copy, stringified. */
const zodText = (schema: z.ZodType, value: unknown) => JSON.stringify(schema.parse(value));

describe('compiled response serializer', () => {
  it('writes a list as zod did, leaving out the columns the schema does not name', () => {
    const rows = [
      {
        id: 1,
        name: 'Tower "A" \u2028 \\ 東京',
        prefecture: null,
        city: 'Chiyoda',
        address: null,
        postalCode: '100-0001',
        latitude: -0,
        longitude: 139.75,
        organizationId: 3,
        status: 1,
        ipRestrictionEnabled: false,
        createdAt: '2024-01-01T00:00:00.000Z',
        updatedAt: '2024-01-02T00:00:00.000Z',
        groups: [{ id: 5, name: 'G', building_id: 1 }],
        password_hash: 'secret',
      },
      // `fields` trims rows: list items are partial.
      { id: 2, name: 'B', flowGroups: [] },
    ];
    const text = compiledSerializer(buildingListSchema)(rows);
    expect(text).toBe(zodText(buildingListSchema, rows));
    expect(text).not.toContain('secret');
    expect(text).not.toContain('building_id');
  });

  it('writes any operator zod accepts exactly as zod does', () => {
    const operator = fc.record(
      {
        id: fc.integer(),
        loginId: fc.string(),
        firstName: fc.string({ unit: 'grapheme' }),
        lastName: fc.string({ unit: 'grapheme' }),
        type: fc.constantFrom(0, 1, 2, 9),
        organizationId: fc.integer(),
        organizationName: fc.string(),
        buildingId: fc.option(fc.integer(), { nil: null }),
        buildingName: fc.option(fc.string(), { nil: null }),
        flowEditRestricted: fc.boolean(),
        status: fc.constantFrom(0, 1),
        authMode: fc.constantFrom('none', 'email', 'sms'),
        lockedUntil: fc.option(fc.string(), { nil: null }),
        mustChangePassword: fc.boolean(),
        lastLoginAt: fc.option(fc.string(), { nil: null }),
        createdAt: fc.string(),
        updatedAt: fc.string(),
        extra: fc.anything(),
      },
      { requiredKeys: ['id', 'loginId', 'firstName', 'lastName', 'type', 'organizationId', 'buildingId'] },
    );
    const write = compiledSerializer(operatorListSchema);
    fc.assert(
      fc.property(fc.array(operator, { maxLength: 5 }), (rows) => {
        const parsed = operatorListSchema.safeParse(rows);
        fc.pre(parsed.success);
        expect(write(rows)).toBe(JSON.stringify(parsed.data));
      }),
    );
  });

  it('leaves transforms, defaults, open objects and unions of objects to zod', () => {
    const schema = z.object({
      trimmed: z.string().trim(),
      lower: z.string().transform((s) => s.toLowerCase()),
      withDefault: z.number().default(7),
      open: z.looseObject({ a: z.number() }),
      either: z.union([z.object({ kind: z.literal('a'), a: z.number() }), z.object({ kind: z.literal('b') })]),
      tags: z.record(z.string(), z.number()),
      at: z.date(),
    });
    const value = {
      trimmed: '  x ',
      lower: 'ABC',
      open: { a: 1, b: 2 },
      either: { kind: 'a', a: 1, hidden: true },
      tags: { x: 1 },
      at: new Date(0),
      hidden: 1,
    };
    expect(compiledSerializer(schema)(value)).toBe(zodText(schema, value));
  });

  it('writes keys of any spelling as text, never as code, and leaves out what JSON.stringify leaves out', () => {
    const schema = z.object({
      'quote"key': z.string(),
      "back\\slash'\n": z.number().optional(),
      '`${x}`': z.boolean().nullable(),
      'a\u2028b': z.object({ 'inner}': z.string().optional() }).optional(),
      plain: z.unknown(),
    });
    const values = [
      { 'quote"key': 'q', "back\\slash'\n": 1, '`${x}`': null, 'a\u2028b': { 'inner}': 'i' }, plain: [1] },
      { 'quote"key': '', '`${x}`': true, 'a\u2028b': {}, plain: undefined },
      { 'quote"key': 'x', "back\\slash'\n": undefined, '`${x}`': false, plain: () => 1 },
    ];
    for (const value of values) expect(compiledSerializer(schema)(value)).toBe(zodText(schema, value));
  });

  it('writes keys that look like numbers first, in number order, as JSON.stringify of zod’s copy does', () => {
    const schema = z.object({
      b: z.string(),
      '10': z.number(),
      '2': z.number().nullable(),
      list: z.array(z.object({ '1': z.string(), a: z.string().optional() })),
    });
    const value = { list: [{ a: 'A', '1': 'one', x: 1 }, { '1': 'two' }], '2': null, b: 'x', '10': 1 };
    expect(compiledSerializer(schema)(value)).toBe(zodText(schema, value));
    expect(compiledSerializer(schema)(value)).toBe(
      '{"2":null,"10":1,"b":"x","list":[{"1":"one","a":"A"},{"1":"two"}]}',
    );
  });

  it('compiles the response schema of every API operation', () => {
    const ops = Object.values(contract).flatMap((v) =>
      v && typeof v === 'object'
        ? Object.values(v as Record<string, unknown>).filter(
            (o): o is { responses: Record<string, z.ZodType> } =>
              typeof o === 'object' && o !== null && 'responses' in o && 'path' in o,
          )
        : [],
    );
    expect(ops.length).toBeGreaterThan(50);
    for (const op of ops) {
      for (const schema of Object.values(op.responses)) expect(typeof compiledSerializer(schema)).toBe('function');
    }
  });
});
