import type { FastifyReply } from 'fastify';
import type { ZodType } from 'zod';
import type { Principal } from '../context.ts';
import type { ReadCache } from '../services/read-cache.ts';
import { AppError } from './errors.ts';
import type { ParsedFilter } from './filter.ts';
import { serializerFor } from './serializer.ts';

/** A list answer: the JSON text of its items (written by the schema's compiled serializer) and the total. */
export interface ListAnswer {
  json: string;
  total: number;
}

/**
 * Lists are read far more often than written: the checked, serialized answer is kept per scope and
 * filter while the data is unchanged (services/read-cache.ts).
 */
export function cachedLists(cache: ReadCache) {
  return (
    key: string,
    p: Principal,
    rawFilter: string | undefined,
    schema: ZodType,
    compute: () => Promise<{ items: unknown[]; total: number }>,
  ): Promise<ListAnswer> =>
    cache.get(`${key}|${p.type}|${p.organizationId}|${p.buildingId}|${rawFilter ?? ''}`, async () => {
      const { items, total } = await compute();
      return { json: serializerFor(schema)(items), total };
    });
}

/** Sends a list answer: already checked and serialized, so the string goes out as it is. */
export const sendList = (reply: FastifyReply, answer: ListAnswer) =>
  reply
    .header('x-total-count', answer.total)
    .type('application/json; charset=utf-8')
    .send(answer.json as never);

/** A list answered whole (every field of each entry): `filter.fields` is refused as a 400 BAD_FILTER. */
export function refuseFields(f: ParsedFilter): void {
  if (f.fields)
    throw new AppError('BAD_FILTER', 'Invalid filter: fields is not supported here', [
      { path: 'fields', message: 'fields is not supported here; every entry is answered whole' },
    ]);
}

/** A page read as its ids (in the filter's order) and then their rows: the rows in that order, mapped. */
export async function rowsInOrder<R extends { id: number }, T>(
  page: { ids: number[]; total: number },
  byIds: (ids: number[]) => Promise<R[]>,
  map: (row: R) => T,
): Promise<{ items: T[]; total: number }> {
  if (page.ids.length === 0) return { items: [], total: page.total };
  const byId = new Map((await byIds(page.ids)).map((r) => [r.id, r]));
  return { items: page.ids.flatMap((id) => byId.get(id) ?? []).map(map), total: page.total };
}
