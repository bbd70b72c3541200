import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { secretBox } from '../../lib/crypto.ts';
import { OutboundError, type Outbound } from '../../lib/outbound.ts';
import { linksRepo } from '../buildings/links-repo.ts';
import type { MeterReadingService, ReadingResult } from './reading-service.ts';

/**
 * The hakaru.ai client (docs/meter-reading.md "hakaru.ai"): the photo goes to the external AI
 * service, which answers the meter's value. The login is the building's (system links:
 * `hakaruAiLoginId`, the sealed `hakaruAiPassword`); the API root is HAKARU_AI_URL. The request and
 * answer shapes are this project's assumption of the service's REST API (the real service could not
 * be reached while building it), kept in one place here.
 *
 * - `POST {root}/v1/auth/token` `{ loginId, password }` → 200 `{ accessToken, expiresIn }` (seconds)
 * - `POST {root}/v1/tasks/{taskId}/readings` with `Authorization: Bearer <accessToken>` and
 *   `{ deviceId, qrCode, image: <base64 PNG>, imageType: "image/png" }` → 200
 *   `{ status: "ok", value, qrCode }` or `{ status: "error", code: "MARKER_NOT_FOUND" | "UNREADABLE", message }`;
 *   401 when the token has expired (the client logs in again, once).
 */
export interface HakaruDeps {
  db: Kysely<Database>;
  outbound: Outbound;
  secretKey: string;
  /** The API root without a trailing slash (config.hakaruAiUrl). */
  baseUrl: string;
  clock?: () => Date;
}

const failed = (message: string): ReadingResult => ({ ok: false, code: 'READ_FAILED', message });

export function hakaruReader(deps: HakaruDeps): MeterReadingService {
  const box = secretBox(deps.secretKey);
  const now = () => (deps.clock ? deps.clock() : new Date()).getTime();
  /** Tokens per login id (a building's login), until shortly before they expire. */
  const tokens = new Map<string, { token: string; until: number }>();

  async function post(path: string, body: unknown, token?: string) {
    const res = await deps.outbound.send(`${deps.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    let json: Record<string, unknown> | null = null;
    try {
      json = JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
    } catch {
      json = null;
    }
    return { status: res.status, json };
  }

  async function login(loginId: string, password: string, fresh: boolean): Promise<string> {
    const cached = tokens.get(loginId);
    if (!fresh && cached && cached.until > now()) return cached.token;
    const r = await post('/v1/auth/token', { loginId, password });
    const token = r.json?.accessToken;
    if (r.status !== 200 || typeof token !== 'string') throw new Error(`hakaru.ai login refused (${r.status})`);
    const ttl = typeof r.json?.expiresIn === 'number' ? r.json.expiresIn : 300;
    tokens.set(loginId, { token, until: now() + Math.max(0, ttl - 30) * 1000 });
    return token;
  }

  return {
    async read(photo, item) {
      const links = await linksRepo(deps.db).find(item.buildingId);
      const loginId = links?.hakaru_ai_login_id ?? '';
      if (!loginId || !links?.hakaru_ai_password) return failed('the building has no hakaru.ai login');
      if (!item.taskId) return failed('the check item has no hakaru.ai task ID');
      let password: string;
      try {
        password = box.open(links.hakaru_ai_password);
      } catch {
        return failed('the hakaru.ai password cannot be opened (sealed with another key)');
      }
      const body = {
        deviceId: item.deviceId || null,
        qrCode: item.qrCodeNumber || null,
        image: Buffer.from(photo.buffer, photo.byteOffset, photo.byteLength).toString('base64'),
        imageType: 'image/png',
      };
      const path = `/v1/tasks/${encodeURIComponent(item.taskId)}/readings`;
      try {
        let r = await post(path, body, await login(loginId, password, false));
        if (r.status === 401) r = await post(path, body, await login(loginId, password, true));
        const j = r.json;
        if (r.status === 200 && j?.status === 'ok' && typeof j.value === 'number' && Number.isFinite(j.value)) {
          const qr = typeof j.qrCode === 'string' ? j.qrCode : (item.qrCodeNumber ?? '');
          if (item.qrCodeNumber && qr !== item.qrCodeNumber) {
            return {
              ok: false,
              code: 'MARKER_NOT_FOUND',
              message: `QR code ${qr} is not the check item's ${item.qrCodeNumber}`,
            };
          }
          return { ok: true, value: j.value, qr };
        }
        const message = typeof j?.message === 'string' ? j.message.slice(0, 500) : `hakaru.ai answered ${r.status}`;
        if (j?.code === 'MARKER_NOT_FOUND') return { ok: false, code: 'MARKER_NOT_FOUND', message };
        return failed(message);
      } catch (err) {
        return failed(err instanceof OutboundError ? `hakaru.ai not reached: ${err.reason}` : (err as Error).message);
      }
    },
  };
}
