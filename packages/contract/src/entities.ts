import { z } from 'zod';
import { floorTypeSchema, organizationTypeSchema, recordStatusSchema } from './codes.ts';

const id = z.number().int();
const isoDate = z.string();

export const namedRefSchema = z.object({ id, name: z.string() });

export const buildingSchema = z.object({
  id,
  name: z.string(),
  /** A prefecture code ('13'), or free text stored before the field became a choice (places.ts). */
  prefecture: z.string().nullable(),
  city: z.string().nullable(),
  address: z.string().nullable(),
  postalCode: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  organizationId: id,
  status: recordStatusSchema,
  ipRestrictionEnabled: z.boolean(),
  /** IANA zone the building's events are shown in ('Asia/Tokyo'). */
  timeZone: z.string(),
  createdAt: isoDate,
  updatedAt: isoDate,
  groups: z.array(namedRefSchema).optional(),
  flowGroups: z.array(namedRefSchema).optional(),
});
export type Building = z.infer<typeof buildingSchema>;

export const organizationSchema = z.object({
  id,
  name: z.string(),
  type: organizationTypeSchema,
  level: z.number().int(),
  /** A prefecture code ('13'), or free text stored before the field became a choice (places.ts). */
  prefecture: z.string().nullable(),
  city: z.string().nullable(),
  address: z.string().nullable(),
  postalCode: z.string().nullable(),
  status: recordStatusSchema,
  labOption: z.boolean(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Organization = z.infer<typeof organizationSchema>;

export const floorSchema = z.object({
  id,
  name: z.string(),
  buildingId: id,
  type: floorTypeSchema,
  index: z.number().int(),
  img: z.string().nullable(),
  ugomap: z.string().nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Floor = z.infer<typeof floorSchema>;

/** Lists answer a page: the rows asked for (possibly with a subset of fields) and the total. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), limit: z.number().int(), skip: z.number().int() });

/** `fields` may trim a row, so list items are partial. */
export const buildingListSchema = z.array(buildingSchema.partial());
export const organizationListSchema = z.array(organizationSchema.partial());
export const floorListSchema = z.array(floorSchema.partial());

/** Floor number rule of spec section 5: 1F=1, B1=0, B2=-1. */
export function floorLabel(index: number): string {
  return index >= 1 ? `${index}F` : `B${1 - index}`;
}

/** How a floor is named in pickers: its number and its name, once when they are the same ("2F"). */
export function floorDisplayName(f: { name?: string | null; index?: number | null }): string {
  const label = typeof f.index === 'number' ? floorLabel(f.index) : '';
  const name = f.name ?? '';
  return !label ? name : !name || name === label ? label : `${label} ${name}`;
}
