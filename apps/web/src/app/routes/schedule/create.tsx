import { ScheduleCreatePage } from '@/features/schedules/components/schedule-page';

export function Component() {
  return <ScheduleCreatePage />;
}
