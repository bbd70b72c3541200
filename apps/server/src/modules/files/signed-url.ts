import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { FILE_KEY_PATTERN } from '../../services/file-store.ts';

/**
 * Short-lived signed file URLs: `<img src>` cannot send a bearer header, so the API hands out
 * `${apiBase}/files/<key>?exp=<unix>&sig=<hmac>` (HMAC-SHA256 over key and exp, keyed from
 * SECRET_KEY). Valid one hour; exp is rounded up to 5 minutes so the URL of a file stays the same
 * for a while and the browser's cache (ETag) is used.
 */
export const SIGNED_URL_TTL_S = 3600;
const ROUND_S = 300;

const keyOf = (secretKey: string) => createHash('sha256').update(`file-url:${secretKey}`).digest();
const signature = (secretKey: string, fileKey: string, exp: number) =>
  createHmac('sha256', keyOf(secretKey)).update(`${fileKey}:${exp}`).digest('base64url');

/** The key of a file URL stored in the database (`${apiBase}/files/<key>`), or null. */
export const fileKeyOfUrl = (apiBase: string, url: string | null): string | null => {
  if (!url?.startsWith(`${apiBase}/files/`)) return null;
  const key = url.slice(apiBase.length + '/files/'.length);
  return FILE_KEY_PATTERN.test(key) ? key : null;
};

export function signFileUrl(secretKey: string, apiBase: string, fileKey: string, now: Date): string {
  const exp = Math.ceil((Math.floor(now.getTime() / 1000) + SIGNED_URL_TTL_S) / ROUND_S) * ROUND_S;
  return `${apiBase}/files/${fileKey}?exp=${exp}&sig=${signature(secretKey, fileKey, exp)}`;
}

/** True when `sig` was made by this server for this key and `exp`, and `exp` has not passed. */
export function verifyFileSignature(secretKey: string, fileKey: string, exp: number, sig: string, now: Date): boolean {
  const nowS = Math.floor(now.getTime() / 1000);
  if (!Number.isSafeInteger(exp) || exp <= nowS || exp > nowS + SIGNED_URL_TTL_S + ROUND_S) return false;
  const expected = Buffer.from(signature(secretKey, fileKey, exp));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
