import { z } from 'zod';
import { floorTypeSchema, organizationTypeSchema } from './codes.ts';
import { prefectureInputSchema, timeZoneSchema } from './places.ts';
import { loginIdSchema, operatorPasswordSchema, personNameSchema, POSTAL_CODE_PATTERN } from './validation.ts';

const optionalText = (max: number) => z.string().trim().max(max, `validation.max${max}`).optional();

/**
 * Initial data import (/auth/init-data): one organization with its buildings (with floors) and
 * operators. Operators name their building by its position in `buildings`. All or nothing.
 */
export const initDataSchema = z
  .object({
    organization: z.object({
      name: z.string().trim().min(1, 'validation.required').max(48, 'validation.max48'),
      type: organizationTypeSchema.default(0),
      prefecture: prefectureInputSchema.optional(),
      city: optionalText(40),
      address: optionalText(120),
      postalCode: z.string().regex(POSTAL_CODE_PATTERN, 'validation.postalCode').optional(),
      labOption: z.boolean().default(false),
      contractEndAt: z.iso.date().optional(),
    }),
    buildings: z
      .array(
        z.object({
          name: z.string().trim().min(1, 'validation.required').max(40, 'validation.max40'),
          prefecture: prefectureInputSchema.optional(),
          city: optionalText(40),
          address: optionalText(120),
          postalCode: z.string().regex(POSTAL_CODE_PATTERN, 'validation.postalCode').optional(),
          latitude: z.number().min(-90).max(90).optional(),
          longitude: z.number().min(-180).max(180).optional(),
          timeZone: timeZoneSchema.optional(),
          floors: z
            .array(
              z.object({
                name: z.string().trim().min(1, 'validation.required').max(40, 'validation.max40'),
                index: z.number().int().min(-20).max(200),
                type: floorTypeSchema.default('office'),
              }),
            )
            .max(200)
            .default([]),
        }),
      )
      .min(1, 'validation.required')
      .max(100),
    operators: z
      .array(
        z.object({
          loginId: loginIdSchema,
          firstName: personNameSchema,
          lastName: personNameSchema,
          password: operatorPasswordSchema,
          type: z.union([z.literal(0), z.literal(1), z.literal(2)]),
          building: z.number().int().min(0),
        }),
      )
      .max(1000)
      .default([]),
  })
  .superRefine((d, ctx) => {
    const seen = new Set<string>();
    d.operators.forEach((op, i) => {
      if (op.building >= d.buildings.length) {
        ctx.addIssue({ code: 'custom', path: ['operators', i, 'building'], message: 'validation.unknownBuilding' });
      }
      const key = op.loginId.toLowerCase();
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: ['operators', i, 'loginId'], message: 'validation.duplicate' });
      seen.add(key);
    });
  });
export type InitData = z.infer<typeof initDataSchema>;

export const initDataResultSchema = z.object({
  organizationId: z.number().int(),
  buildings: z.number().int(),
  floors: z.number().int(),
  operators: z.number().int(),
});
