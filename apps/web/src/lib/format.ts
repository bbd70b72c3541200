import type { Language } from '@portal/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Times are shown in one zone whatever the language (docs/architecture.md "Times and time zones"):
 * what happens in a building (robot communication, settings history, map revisions, the console...)
 * in the building's zone, everything else in the browser's zone; the zone is always stated.
 */
export interface ZoneOptions {
  /** IANA zone ('Asia/Tokyo'); absent (or unknown to this browser): the browser's zone. */
  timeZone?: string | null;
}

const localeFor = (lang: Language): string => (lang === 'ja' ? 'ja-JP' : 'en-US');

const toDate = (value: string | Date): Date | null => {
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
};

const formatters = new Map<string, Intl.DateTimeFormat>();
/** One formatter per language, style and zone (lists format many rows); an unknown zone is the browser's. */
function formatter(lang: Language, style: 'dateTime' | 'date' | 'ymd' | 'zone', timeZone?: string | null) {
  const key = `${lang}|${style}|${timeZone ?? ''}`;
  let f = formatters.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      style === 'dateTime'
        ? {
            year: 'numeric',
            month: lang === 'ja' ? '2-digit' : 'short',
            day: lang === 'ja' ? '2-digit' : 'numeric',
            hour: lang === 'ja' ? '2-digit' : 'numeric',
            minute: '2-digit',
            timeZoneName: 'short',
          }
        : style === 'date'
          ? { dateStyle: 'medium' }
          : style === 'ymd'
            ? { year: 'numeric', month: '2-digit', day: '2-digit' }
            : { timeZoneName: 'short' };
    const locale = style === 'ymd' ? 'en-CA' : localeFor(lang);
    try {
      f = new Intl.DateTimeFormat(locale, { ...options, timeZone: timeZone ?? undefined });
    } catch {
      f = new Intl.DateTimeFormat(locale, options);
    }
    formatters.set(key, f);
  }
  return f;
}

/** "2026/03/31 16:00 JST" (ja), "Mar 31, 2026, 4:00 PM GMT+9" (en): the zone's short name stated. */
export function formatDateTime(value: string | Date, lang: Language, opts: ZoneOptions = {}): string {
  const d = toDate(value);
  return d ? formatter(lang, 'dateTime', opts.timeZone).format(d) : String(value);
}

export function formatDate(value: string | Date, lang: Language, opts: ZoneOptions = {}): string {
  const d = toDate(value);
  return d ? formatter(lang, 'date', opts.timeZone).format(d) : String(value);
}

/** YYYY-MM-DD in the zone (the contract banner's format); a date without a time is shown as it is. */
export function formatYmd(value: string | Date, lang: Language, opts: ZoneOptions = {}): string {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const d = toDate(value);
  if (!d) return String(value);
  const parts = formatter(lang, 'ymd', opts.timeZone).formatToParts(d);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** The zone a formatter really uses: the one asked for when the browser knows it, else the browser's. */
export function resolvedZone(timeZone?: string | null): string {
  return formatter('en', 'zone', timeZone).resolvedOptions().timeZone;
}

/** "Asia/Tokyo (JST)": the zone's IANA name and its short name now, for captions. */
export function formatZone(lang: Language, timeZone?: string | null, at: Date = new Date()): string {
  const f = formatter(lang, 'zone', timeZone);
  const short = f.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value;
  const name = f.resolvedOptions().timeZone;
  return short && short !== name ? `${name} (${short})` : name;
}

export function formatNumber(value: number, lang: Language): string {
  return new Intl.NumberFormat(localeFor(lang)).format(value);
}

/**
 * Formatters bound to the current UI language. Without a zone, times are in the browser's zone;
 * a building's events pass the building's (`useBuildingTimeZone`, `lib/building-time.ts`).
 */
export function useFormat() {
  const { i18n } = useTranslation();
  const lang: Language = i18n.language === 'ja' ? 'ja' : 'en';
  return useMemo(
    () => ({
      lang,
      dateTime: (v: string | Date, opts?: ZoneOptions) => formatDateTime(v, lang, opts),
      date: (v: string | Date, opts?: ZoneOptions) => formatDate(v, lang, opts),
      ymd: (v: string | Date, opts?: ZoneOptions) => formatYmd(v, lang, opts),
      zone: (timeZone?: string | null) => formatZone(lang, timeZone),
      number: (v: number) => formatNumber(v, lang),
    }),
    [lang],
  );
}
