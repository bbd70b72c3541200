import type { DateSelectArg, DatesSetArg, EventChangeArg, EventClickArg, EventInput } from '@fullcalendar/core';
import jaLocale from '@fullcalendar/core/locales/ja';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin from '@fullcalendar/interaction';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import { useEffect, useRef } from 'react';

export type CalendarType = 'month' | 'week' | 'day';
const VIEWS: Record<CalendarType, string> = { month: 'dayGridMonth', week: 'timeGridWeek', day: 'timeGridDay' };
const TYPES = Object.fromEntries(Object.entries(VIEWS).map(([k, v]) => [v, k])) as Record<string, CalendarType>;

export interface CalendarViewProps {
  type: CalendarType;
  /** The date shown (`YYYY-MM-DD`, the building's), or today. */
  date: string | null;
  /** The building's wall clock now, as the calendar's (UTC-read) date: today and the now line. */
  now: Date;
  language: 'ja' | 'en';
  /** Accessible names of the arrow buttons (`$0` is the view's unit). */
  hints: { prev: string; next: string; today: string };
  events: EventInput[];
  onRange: (start: Date, end: Date, type: CalendarType, current: Date) => void;
  onEventClick: (id: string, anchor: HTMLElement) => void;
  /** A drag or resize; `revert` puts the event back (a refused or cancelled change). */
  onEventChange: (id: string, start: Date, end: Date, revert: () => void) => void;
  onSelect: (start: Date, end: Date, allDay: boolean) => void;
}

/**
 * FullCalendar v6 (loaded lazily with the calendar route's chunk). It runs in UTC and is given the
 * building's wall-clock times as written, so it shows the building's clock whatever the browser's zone.
 */
export default function CalendarView(props: CalendarViewProps) {
  const ref = useRef<FullCalendar>(null);
  const { type, date } = props;
  // The route's type and date drive the calendar (back and forward in the history).
  useEffect(() => {
    const api = ref.current?.getApi();
    if (!api) return;
    if (api.view.type !== VIEWS[type]) api.changeView(VIEWS[type], date ?? undefined);
    else if (date) api.gotoDate(date);
  }, [type, date]);
  return (
    <FullCalendar
      ref={ref}
      plugins={[dayGridPlugin, timeGridPlugin, interactionPlugin]}
      initialView={VIEWS[type]}
      initialDate={date ?? props.now}
      now={props.now}
      timeZone="UTC"
      locale={props.language === 'ja' ? jaLocale : 'en'}
      headerToolbar={{ left: 'prev,next today', center: 'title', right: '' }}
      // Text arrows: FullCalendar's icon font is a data: URL, which the portal's CSP does not load.
      buttonIcons={false}
      buttonText={{ prev: '‹', next: '›' }}
      buttonHints={props.hints}
      height="auto"
      nowIndicator
      editable
      eventDurationEditable
      selectable
      selectMirror
      allDaySlot={false}
      // No "+n more" popover: its close button is an icon of that font.
      dayMaxEvents={false}
      events={props.events}
      datesSet={(arg: DatesSetArg) =>
        props.onRange(arg.start, arg.end, TYPES[arg.view.type] ?? type, arg.view.currentStart)
      }
      eventClick={(arg: EventClickArg) => {
        arg.jsEvent.preventDefault();
        props.onEventClick(arg.event.id, arg.el);
      }}
      eventChange={(arg: EventChangeArg) => {
        const { start, end } = arg.event;
        if (!start) return arg.revert();
        props.onEventChange(arg.event.id, start, end ?? start, arg.revert);
      }}
      select={(arg: DateSelectArg) => {
        arg.view.calendar.unselect();
        props.onSelect(arg.start, arg.end, arg.allDay);
      }}
    />
  );
}
