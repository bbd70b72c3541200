import type { FastifyInstance } from 'fastify';

/**
 * The page runs only its own scripts; styles may be inline because Mantine injects them at run time.
 * Images and media also come from data:/blob: URLs (map canvases, camera streams); the API, its
 * WebSockets and WebRTC signalling stay on this origin. Fonts may be data: URLs (the schedule
 * calendar's library embeds its icon font so).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "media-src 'self' blob:",
  "connect-src 'self' ws: wss:",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Security headers on every answer (pages, assets, API, errors). HSTS only when the request came
 * over TLS (`request.protocol` honours TRUST_PROXY's X-Forwarded-Proto), so a plain-HTTP setup is
 * not pinned to HTTPS by accident. A header a route already set is kept.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const set = (name: string, value: string) => {
      if (!reply.hasHeader(name)) reply.header(name, value);
    };
    set('content-security-policy', CONTENT_SECURITY_POLICY);
    set('x-content-type-options', 'nosniff');
    set('referrer-policy', 'strict-origin-when-cross-origin');
    set('x-frame-options', 'DENY');
    if (request.protocol === 'https') set('strict-transport-security', HSTS);
    return payload;
  });
}
