import { z } from 'zod';

/** The documents system administrators edit in the portal (the maintenance contract is not one). */
export const editableTermKindSchema = z.enum(['TOS', 'PP']);
export type EditableTermKind = z.infer<typeof editableTermKindSchema>;

/** Longest title and text of a document, per language. */
export const TERM_TITLE_MAX = 200;
export const TERM_BODY_MAX = 100_000;

const title = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required', abort: true })
  .max(TERM_TITLE_MAX, 'validation.max200');
const body = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required', abort: true })
  .max(TERM_BODY_MAX, 'validation.tooLong');

/** The current version of a document in both languages, as a system administrator edits it. */
export const termTextSchema = z.object({
  id: z.number().int(),
  kind: editableTermKindSchema,
  version: z.string(),
  titleJa: z.string(),
  titleEn: z.string(),
  bodyJa: z.string(),
  bodyEn: z.string(),
  publishedAt: z.string(),
  /** The version of the stored text, sent back with an edit (409 STALE_UPDATE when it changed). */
  updatedAt: z.string(),
  /** How many operators agreed to this version. */
  agreedCount: z.number().int(),
});
export type TermText = z.infer<typeof termTextSchema>;

export const termTextsSchema = z.object({ TOS: termTextSchema.nullable(), PP: termTextSchema.nullable() });
export type TermTexts = z.infer<typeof termTextsSchema>;

/**
 * `publish`: a new version that every operator must agree to before working on (the terms page
 * asks them at their next request); `correct`: the current version's text is corrected in place
 * (typos, wording), agreements stay.
 */
export const termUpdateModeSchema = z.enum(['publish', 'correct']);
export type TermUpdateMode = z.infer<typeof termUpdateModeSchema>;

export const updateTermTextBodySchema = z.object({
  mode: termUpdateModeSchema,
  /** The version label of a new version (`publish`); ignored by `correct`. */
  version: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .max(32, 'validation.max32'),
  titleJa: title,
  titleEn: title,
  bodyJa: body,
  bodyEn: body,
  /** `updatedAt` of the version the edit is based on; null when there is none yet. */
  baseUpdatedAt: z.string().max(40).nullable(),
});
export type UpdateTermTextBody = z.infer<typeof updateTermTextBodySchema>;

export const termKindParams = z.object({ kind: editableTermKindSchema });
