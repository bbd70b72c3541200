import { useMemo } from 'react';
import { useFormat } from '@/lib/format';

/**
 * Times of the console to the second (and, for log lines, the millisecond: robot messages arrive
 * several times a second), in the zone of the robot's building (the browser's while it is unknown).
 * The page states the zone under its header; a full date and time carries the zone's short name.
 */
export function useConsoleTime(timeZone?: string) {
  const { lang } = useFormat();
  return useMemo(() => {
    const locale = lang === 'ja' ? 'ja-JP' : 'en-US';
    const make = (options: Intl.DateTimeFormatOptions) => {
      try {
        return new Intl.DateTimeFormat(locale, { ...options, timeZone });
      } catch {
        return new Intl.DateTimeFormat(locale, options);
      }
    };
    const clock = make({
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      fractionalSecondDigits: 3,
      hourCycle: 'h23',
    });
    const full = make({
      year: 'numeric',
      month: lang === 'ja' ? '2-digit' : 'short',
      day: lang === 'ja' ? '2-digit' : 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'short',
    });
    const safe = (f: Intl.DateTimeFormat) => (iso: string) => {
      const d = new Date(iso);
      return Number.isNaN(d.getTime()) ? iso : f.format(d);
    };
    return { time: safe(clock), dateTime: safe(full) };
  }, [lang, timeZone]);
}
