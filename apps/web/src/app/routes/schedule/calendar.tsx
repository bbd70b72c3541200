import { Navigate, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { ScheduleCalendar } from '@/features/schedules/components/schedule-calendar';

const TYPES = ['month', 'week', 'day'] as const;

/** `/schedule/cal/{month|week|day}`; another type goes to the week. */
export function Component() {
  const param = useParams().type;
  const type = TYPES.find((v) => v === param);
  if (!type) return <Navigate to={paths.schedule.calendar.getHref('week')} replace />;
  return <ScheduleCalendar type={type} />;
}
