import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import {
  errorBodySchema,
  successStatus,
  type OpBody,
  type OpParams,
  type OpQuery,
  type OpResult,
  type Operation,
} from '@portal/contract';
import { sendList, type ListAnswer } from './list-answer.ts';

/** A request of an operation: its params, query and body already checked against the contract. */
export type OpRequest<O extends Operation> = FastifyRequest & {
  params: OpParams<O>;
  query: OpQuery<O>;
  body: OpBody<O>;
};

type ListResult<O extends Operation> = ListAnswer | { items: OpResult<O>; total: number };

/**
 * A handler returns the answer of the operation's success status (set for it); it may set another
 * declared status itself (`reply.code(202)`). A list handler returns its items with their total, or a
 * cached `ListAnswer`.
 */
export type Handler<O extends Operation> = (
  req: OpRequest<O>,
  reply: FastifyReply,
) => Promise<O['list'] extends true ? ListResult<O> : OpResult<O> | void>;

const isListAnswer = (v: unknown): v is ListAnswer =>
  typeof v === 'object' && v !== null && typeof (v as ListAnswer).json === 'string';

/** What a route needs beyond its operation: server-side settings that are not part of the API's shape. */
export interface RouteExtra {
  /** Merged into the route's config (`rateLimit` of @fastify/rate-limit). */
  config?: Omit<FastifyContextConfig, 'access' | 'allowDuringPasswordChange'> & Record<string, unknown>;
  /** The largest JSON body in bytes, when larger than the server's default. */
  bodyLimit?: number;
  /** Answers besides the success ones and the 4xx error body (the 503 of health, the 403 of broker hooks). */
  responses?: Record<number, ZodType>;
  /** Left out of the OpenAPI document (server-to-server hooks). */
  hide?: boolean;
}

/** Registers one operation's route: path, method, access and schemas come from the contract. */
export function route<O extends Operation>(
  app: FastifyInstance,
  op: O,
  handler: Handler<O>,
  extra: RouteExtra = {},
): void {
  const status = successStatus(op);
  app.route({
    method: op.method,
    url: op.path,
    ...(extra.bodyLimit ? { bodyLimit: extra.bodyLimit } : {}),
    config: {
      ...extra.config,
      access: op.access,
      ...(op.allowDuringPasswordChange ? { allowDuringPasswordChange: true } : {}),
    },
    schema: {
      ...(extra.hide ? { hide: true } : {}),
      operationId: op.id,
      tags: [...op.tags],
      ...(op.summary ? { summary: op.summary } : {}),
      ...(op.params ? { params: op.params } : {}),
      ...(op.query ? { querystring: op.query } : {}),
      ...(op.body && !op.multipart ? { body: op.body } : {}),
      ...(op.multipart ? { consumes: ['multipart/form-data'] } : {}),
      response: { ...op.responses, '4xx': errorBodySchema, ...extra.responses },
    },
    handler: async (req, reply) => {
      const out: unknown = await handler(req as OpRequest<O>, reply);
      if (reply.sent) return reply;
      if (op.list) {
        if (isListAnswer(out)) return sendList(reply, out);
        const page = out as { items: unknown[]; total: number };
        return reply.header('x-total-count', page.total).send(page.items);
      }
      if (reply.statusCode === 200 && status !== 200) reply.code(status);
      if (reply.statusCode === 204) return reply.send(null);
      return reply.send(out);
    },
  });
}

/**
 * Registers every operation of a resource; the handler map must cover each one. `extra` gives some
 * of them server-side settings (rate limits, body limits).
 */
export function routes<T extends Record<string, Operation>>(
  app: FastifyInstance,
  ops: T,
  handlers: { [K in keyof T]: Handler<T[K]> },
  extra: { [K in keyof T]?: RouteExtra } = {},
): void {
  for (const key of Object.keys(ops) as Array<keyof T>) route(app, ops[key], handlers[key], extra[key]);
}
