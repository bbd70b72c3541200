import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorBody, ErrorCode, ErrorDetail } from '@portal/contract';
import { AppError } from '../lib/errors.ts';

const body = (statusCode: number, code: ErrorCode, message: string, details?: ErrorDetail[]): ErrorBody => ({
  error: { statusCode, code, message, ...(details ? { details } : {}) },
});

/** Fastify's own 4xx errors (malformed JSON, wrong content type, too large) in our words. */
function clientErrorCode(status: number): ErrorCode {
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 429) return 'RATE_LIMITED';
  return 'VALIDATION_FAILED';
}

/** One error body everywhere; 5xx bodies never carry internals. */
export function registerErrorHandling(app: FastifyInstance, opts: { apiBase: string; spaHtml: string | null }): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.statusCode).send(body(error.statusCode, error.code, error.message, error.details));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((v) => ({
        path: v.instancePath.split('/').filter(Boolean).join('.') || (error.validationContext ?? ''),
        message: v.message ?? 'validation.invalid',
        code: String((v.params.issue as { code?: unknown } | undefined)?.code ?? 'invalid'),
      }));
      return reply.code(400).send(body(400, 'VALIDATION_FAILED', 'The request is not valid', details));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
      return reply.code(500).send(body(500, 'INTERNAL', 'Internal server error'));
    }
    const status = (error as FastifyError).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return reply.code(status).send(body(status, clientErrorCode(status), error.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(body(500, 'INTERNAL', 'Internal server error'));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const inApi = path === opts.apiBase || path.startsWith(opts.apiBase + '/');
    // History-mode routing: any other GET outside the API answers the web app's index.html.
    if (opts.spaHtml !== null && request.method === 'GET' && !inApi) {
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(opts.spaHtml);
    }
    return reply.code(404).send(body(404, 'NOT_FOUND', `No route ${request.method} ${path}`));
  });
}
