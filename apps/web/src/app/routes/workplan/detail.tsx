import { useParams } from 'react-router';
import { WorkPlanPage } from '@/features/work-plans/components/work-plan-pages';
import { idParam, InvalidId } from '../shared/invalid-id';

import { WithFlowBlocks } from './blocks';

export function Component() {
  const id = idParam(useParams().id);
  if (id === null) return <InvalidId />;
  return (
    <WithFlowBlocks>
      <WorkPlanPage key={id} id={id} />
    </WithFlowBlocks>
  );
}
