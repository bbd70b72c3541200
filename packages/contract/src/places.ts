import { z } from 'zod';

/**
 * Where a building or organization is: the 47 prefectures of Japan by their JIS X 0401 code
 * ('01' Hokkaido ... '13' Tokyo ... '47' Okinawa). The code is what is stored and sent; the web app's
 * locales hold the names in Japanese and English (`prefectures.<code>`). Rows written before the
 * field became a choice may still hold free text that named no known prefecture: it is answered as
 * it is, and an edit must choose a prefecture (or none) before it saves.
 */
export const PREFECTURE_CODES = Array.from({ length: 47 }, (_, i) => String(i + 1).padStart(2, '0'));
export type PrefectureCode = string;

const prefectureSet = new Set(PREFECTURE_CODES);
export const isPrefectureCode = (v: unknown): v is PrefectureCode => typeof v === 'string' && prefectureSet.has(v);

/** A form's or request's prefecture: a code, or '' for none (stored as null). */
export const prefectureInputSchema = z
  .string({ error: 'validation.prefecture' })
  .trim()
  .refine((v) => v === '' || isPrefectureCode(v), 'validation.prefecture');

/** A building's zone when none was chosen: the portal's buildings are in Japan. */
export const DEFAULT_TIME_ZONE = 'Asia/Tokyo';

let zoneList: readonly string[] | null = null;
/**
 * The IANA time zones this runtime knows (`Intl.supportedValuesOf('timeZone')`) and UTC, sorted: the
 * building form offers them and the server accepts them.
 */
export function timeZoneNames(): readonly string[] {
  if (!zoneList) {
    const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    zoneList = [...new Set([...listed, 'UTC'])].sort();
  }
  return zoneList;
}

/** An IANA name as written in the database ('Asia/Tokyo', 'America/Argentina/Buenos_Aires', 'UTC'). */
const IANA_NAME = /^(?:UTC|[A-Z][A-Za-z_]*(?:\/[A-Za-z0-9][A-Za-z0-9_+-]*)+)$/;

/**
 * A zone the runtime lists, or another canonical spelling the runtime resolves (an engine's list may
 * name 'Asia/Calcutta' where another names 'Asia/Kolkata'; both are accepted).
 */
export function isTimeZone(v: unknown): v is string {
  if (typeof v !== 'string' || v.length > 64 || !IANA_NAME.test(v)) return false;
  if (timeZoneNames().includes(v)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: v });
    return true;
  } catch {
    return false;
  }
}

export const timeZoneSchema = z
  .string({ error: 'validation.timeZone' })
  .trim()
  .refine((v) => isTimeZone(v), 'validation.timeZone');
