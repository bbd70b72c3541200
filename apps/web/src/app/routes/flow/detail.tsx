import { useParams } from 'react-router';
import { RunOnRobotButton } from '@/features/flow-runs/components/start-run';
import { FlowPage } from '@/features/flows/components/flow-page';
import { idParam, InvalidId } from '../shared/invalid-id';

export function Component() {
  const id = idParam(useParams().id);
  if (id === null) return <InvalidId />;
  return <FlowPage key={id} id={id} runAction={(flow) => <RunOnRobotButton flow={flow} />} />;
}
