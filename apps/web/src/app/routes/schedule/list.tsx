import { ScheduleList } from '@/features/schedules/components/schedule-list';

export function Component() {
  return <ScheduleList />;
}
