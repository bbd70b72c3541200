import { WorkPlanSettings } from '@/features/work-plans/components/work-plan-settings';

export function Component() {
  return <WorkPlanSettings />;
}
