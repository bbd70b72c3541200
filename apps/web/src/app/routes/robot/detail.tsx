import { useParams } from 'react-router';
import { RobotFlowSection } from '@/features/flow-runs/components/robot-flow-section';
import { canManageRobots } from '@/features/robots/can-manage';
import { RobotPage } from '@/features/robots/components/robot-page';
import { useSession } from '@/lib/session';
import { idParam, InvalidId } from '../shared/invalid-id';

export function Component() {
  const session = useSession();
  const id = idParam(useParams().id);
  if (id === null) return <InvalidId />;
  return (
    <RobotPage
      key={id}
      id={id}
      canManage={canManageRobots(session?.type)}
      flowSection={(robot) => <RobotFlowSection robot={robot} />}
    />
  );
}
