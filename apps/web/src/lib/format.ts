import type { Language } from '@portal/contract';
import { useTranslation } from 'react-i18next';

/** Japanese screens show Tokyo time; English screens the browser's zone (docs/architecture-decisions.md "Data"). */
export const timeZoneFor = (lang: Language): string | undefined => (lang === 'ja' ? 'Asia/Tokyo' : undefined);
const localeFor = (lang: Language): string => (lang === 'ja' ? 'ja-JP' : 'en-US');

const toDate = (value: string | Date): Date | null => {
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
};

export function formatDateTime(value: string | Date, lang: Language): string {
  const d = toDate(value);
  if (!d) return String(value);
  return new Intl.DateTimeFormat(localeFor(lang), {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: timeZoneFor(lang),
  }).format(d);
}

export function formatDate(value: string | Date, lang: Language): string {
  const d = toDate(value);
  if (!d) return String(value);
  return new Intl.DateTimeFormat(localeFor(lang), { dateStyle: 'medium', timeZone: timeZoneFor(lang) }).format(d);
}

/** YYYY-MM-DD in the operator's zone (the contract banner's format). */
export function formatYmd(value: string | Date, lang: Language): string {
  const d = toDate(value);
  if (!d) return String(value);
  const parts = new Intl.DateTimeFormat('en-CA', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    timeZone: timeZoneFor(lang),
  }).formatToParts(d);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

export function formatNumber(value: number, lang: Language): string {
  return new Intl.NumberFormat(localeFor(lang)).format(value);
}

/** Formatters bound to the current UI language. */
export function useFormat() {
  const { i18n } = useTranslation();
  const lang: Language = i18n.language === 'ja' ? 'ja' : 'en';
  return {
    lang,
    dateTime: (v: string | Date) => formatDateTime(v, lang),
    date: (v: string | Date) => formatDate(v, lang),
    ymd: (v: string | Date) => formatYmd(v, lang),
    number: (v: number) => formatNumber(v, lang),
  };
}
