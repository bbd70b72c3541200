import { mapDocumentSchema, type MapDocument } from '@portal/contract';
import { z } from 'zod';
import { readItem, writeItem } from '@/lib/storage';

/** Unsaved editor changes kept in the browser per floor, so a closed tab loses nothing. */
const draftSchema = z.object({
  savedAt: z.string(),
  baseRevision: z.number().int().min(0),
  document: mapDocumentSchema,
});
export type MapDraft = z.infer<typeof draftSchema>;

const key = (floorId: number) => `portal.mapEditorDraft.${floorId}`;

export function readDraft(floorId: number): MapDraft | null {
  const raw = readItem(key(floorId));
  if (!raw) return null;
  try {
    const parsed = draftSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function writeDraft(floorId: number, baseRevision: number, document: MapDocument, at = new Date()): void {
  writeItem(key(floorId), JSON.stringify({ savedAt: at.toISOString(), baseRevision, document }));
}

export function clearDraft(floorId: number): void {
  writeItem(key(floorId), null);
}

export const sameDocument = (a: MapDocument, b: MapDocument): boolean => JSON.stringify(a) === JSON.stringify(b);
