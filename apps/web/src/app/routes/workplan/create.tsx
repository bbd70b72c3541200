import { WorkPlanCreatePage } from '@/features/work-plans/components/work-plan-pages';

import { WithFlowBlocks } from './blocks';

export function Component() {
  return (
    <WithFlowBlocks>
      <WorkPlanCreatePage />
    </WithFlowBlocks>
  );
}
