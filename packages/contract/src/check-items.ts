import { z } from 'zod';

/**
 * Check items (spec sections 3, 4 and 5; issue 17; docs/api-check-items.md). A check item is a spot a
 * flow's check command drives to and photographs: a meter to read (type `meter`) or something only to
 * look at (type `visual`), placed and pointed on a floor of a building. A meter item names its meter
 * type, the reading service, the QR code number next to the meter (or four corner markers), the
 * external service's task ID and device ID, and the threshold rule its value is judged by.
 *
 * Location: metres in the floor map's frame (x right, y up, z height of the meter above the floor),
 * direction in radians in [-π, π] like a waypoint's `theta` (the way the camera looks at the meter).
 *
 * Messages are i18n keys: `validation.*` (core texts) and `checkItemValidation.*` (the check items
 * section).
 */
const id = z.number({ error: 'validation.number' }).int('validation.integer').min(1, 'validation.notFound');

export const CHECK_ITEM_NAME_MAX = 512;
export const CHECK_ITEM_CODE_MAX = 64;
/** The definition JSON's longest text (characters). */
export const CHECK_ITEM_DEFINITION_MAX = 65_536;

/** Spec section 4: 0 disabled, 1 enabled, 2 setting up. */
export const CheckItemStatus = { disabled: 0, enabled: 1, settingUp: 2 } as const;
export const CHECK_ITEM_STATUSES = [0, 1, 2] as const;
export type CheckItemStatusCode = (typeof CHECK_ITEM_STATUSES)[number];

/** Meter reading or not. */
export const CHECK_ITEM_TYPES = ['meter', 'visual'] as const;
export type CheckItemType = (typeof CHECK_ITEM_TYPES)[number];

/** Kinds of meter a reading service reads. */
export const METER_TYPES = ['analog', 'digital'] as const;
export type MeterType = (typeof METER_TYPES)[number];

/** The built-in reader (QR code and needle) or the external AI service hakaru.ai. */
export const READING_SERVICES = ['builtin', 'hakaru'] as const;
export type ReadingService = (typeof READING_SERVICES)[number];

/** How the meter is found in the photo: a QR code next to it, or four corner markers. */
export const MARKER_TYPES = ['qr', 'corners'] as const;
export type MarkerType = (typeof MARKER_TYPES)[number];

const finite = (max: number) =>
  z
    .number({ error: 'validation.number' })
    .refine((v) => Number.isFinite(v), 'validation.number')
    .refine((v) => v >= -max && v <= max, 'validation.range');
const direction = finite(Math.PI + 1e-9);
const code = z
  .string({ error: 'validation.invalid' })
  .trim()
  .max(CHECK_ITEM_CODE_MAX, `validation.max${CHECK_ITEM_CODE_MAX}`)
  .default('');

/** Whether a text is a JSON object (the definition JSON). */
export function isJsonObject(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

const checkItemFields = z.object({
  name: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .max(CHECK_ITEM_NAME_MAX, `validation.max${CHECK_ITEM_NAME_MAX}`),
  buildingId: id,
  floorId: id,
  type: z.enum(CHECK_ITEM_TYPES, { error: 'validation.required' }),
  status: z.union([z.literal(0), z.literal(1), z.literal(2)], { error: 'validation.required' }).default(2),
  /** Meter fields (required for a meter item, null otherwise). */
  meterType: z.enum(METER_TYPES, { error: 'validation.required' }).nullable().default(null),
  readingService: z.enum(READING_SERVICES, { error: 'validation.required' }).nullable().default(null),
  qrCodeNumber: code,
  taskId: code,
  deviceId: code,
  /** A breach of the threshold rule raises a notification; then the rule is required. */
  alerting: z.boolean({ error: 'validation.required' }).default(false),
  thresholdRuleId: id.nullable().default(null),
  /** Metres in the floor map's frame; null: not placed yet (x and y together). */
  x: finite(100_000).nullable().default(null),
  y: finite(100_000).nullable().default(null),
  z: finite(1_000).default(0),
  /** Radians in [-π, π]. */
  direction: direction.default(0),
  markerType: z.enum(MARKER_TYPES, { error: 'validation.required' }).default('qr'),
  /** The photo is searched for the meter's area by its marker. */
  areaDetectionMarker: z.boolean({ error: 'validation.required' }).default(false),
  /** A JSON object's text (required: at least `{}`). */
  definition: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .max(CHECK_ITEM_DEFINITION_MAX, 'validation.tooLong')
    .refine(isJsonObject, 'checkItemValidation.json'),
});

type Fields = z.infer<typeof checkItemFields>;

/**
 * The rules that span fields: a meter item has a meter type and a reading service (hakaru.ai also a
 * task ID); an alerting item has a threshold rule; x and y are set together. The server adds those
 * that need the database (the floor of the building, the rule of the organization).
 */
export function checkItemIssues(c: Fields): Array<{ path: string; message: string }> {
  const out: Array<{ path: string; message: string }> = [];
  if (c.type === 'meter') {
    if (c.meterType === null) out.push({ path: 'meterType', message: 'validation.required' });
    if (c.readingService === null) out.push({ path: 'readingService', message: 'validation.required' });
    if (c.readingService === 'hakaru' && c.taskId === '')
      out.push({ path: 'taskId', message: 'checkItemValidation.taskIdRequired' });
  }
  if (c.alerting && c.thresholdRuleId === null)
    out.push({ path: 'thresholdRuleId', message: 'checkItemValidation.thresholdRequired' });
  if ((c.x === null) !== (c.y === null))
    out.push({ path: c.x === null ? 'x' : 'y', message: 'checkItemValidation.locationPair' });
  return out;
}

const rules = (c: Fields, ctx: z.RefinementCtx) => {
  for (const i of checkItemIssues(c)) ctx.addIssue({ code: 'custom', path: [i.path], message: i.message });
};

export const checkItemInputSchema = checkItemFields.superRefine(rules);
export type CheckItemInput = z.infer<typeof checkItemInputSchema>;
export const updateCheckItemBodySchema = checkItemFields
  .extend({ updatedAt: z.string({ error: 'validation.required' }).min(1).max(40) })
  .superRefine(rules);
export type UpdateCheckItemBody = z.infer<typeof updateCheckItemBodySchema>;

export const checkItemSchema = z.object({
  id: z.number().int(),
  organizationId: z.number().int(),
  buildingId: z.number().int(),
  buildingName: z.string(),
  floorId: z.number().int(),
  floorName: z.string(),
  name: z.string(),
  type: z.enum(CHECK_ITEM_TYPES),
  status: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  meterType: z.enum(METER_TYPES).nullable(),
  readingService: z.enum(READING_SERVICES).nullable(),
  qrCodeNumber: z.string(),
  taskId: z.string(),
  deviceId: z.string(),
  alerting: z.boolean(),
  thresholdRuleId: z.number().int().nullable(),
  x: z.number().nullable(),
  y: z.number().nullable(),
  z: z.number(),
  direction: z.number(),
  markerType: z.enum(MARKER_TYPES),
  areaDetectionMarker: z.boolean(),
  definition: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CheckItem = z.infer<typeof checkItemSchema>;
