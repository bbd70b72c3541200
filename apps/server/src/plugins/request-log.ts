import type { FastifyRequest } from 'fastify';

/** A URL with its `sig` query parameter (a signed file URL's signature) replaced, fit for the log. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]sig=)[^&#]*/gi, '$1[redacted]');
}

/**
 * The request serializer of the logger: Fastify's own fields, with the URL redacted, so a signed file
 * URL copied from the log cannot be replayed.
 */
export function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
