import holidayJp from '@holiday-jp/holiday_jp';

/**
 * Japanese public holidays (a maintained data package, @holiday-jp/holiday_jp: the Cabinet Office's
 * list, 1970–2050, substitute holidays included), for entries that skip them.
 */
const holidays: Readonly<Record<string, unknown>> = holidayJp.holidays;

/** Whether a date (`YYYY-MM-DD`) is a Japanese public holiday. */
export const isJapaneseHoliday = (date: string): boolean => Object.hasOwn(holidays, date);
