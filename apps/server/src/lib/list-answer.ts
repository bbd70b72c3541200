import type { FastifyReply } from 'fastify';
import type { ZodType } from 'zod';
import type { Principal } from '../context.ts';
import type { ReadCache } from '../services/read-cache.ts';
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
