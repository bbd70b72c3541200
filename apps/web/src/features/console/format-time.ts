import { useMemo } from 'react';
import { useFormat, timeZoneFor } from '@/lib/format';

/**
 * Times of the console in the operator's zone, to the second (and, for log lines, the millisecond):
 * robot messages arrive several times a second.
 */
export function useConsoleTime() {
  const { lang } = useFormat();
  return useMemo(() => {
    const locale = lang === 'ja' ? 'ja-JP' : 'en-US';
    const timeZone = timeZoneFor(lang);
    const clock = new Intl.DateTimeFormat(locale, {
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      fractionalSecondDigits: 3,
      hourCycle: 'h23',
      timeZone,
    });
    const full = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium', timeZone });
    const safe = (f: Intl.DateTimeFormat) => (iso: string) => {
      const d = new Date(iso);
      return Number.isNaN(d.getTime()) ? iso : f.format(d);
    };
    return { time: safe(clock), dateTime: safe(full) };
  }, [lang]);
}
