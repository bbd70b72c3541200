import { useParams } from 'react-router';
import { BasicController } from '@/features/teleop/components/basic-controller';
import { RobotGate } from '@/features/teleop/components/robot-gate';
import { loadSection } from '@/lib/i18n';

/** The robot messages and battery texts live in the robots section. */
export async function loader() {
  await loadSection('robots');
  return null;
}

/** /app/basic/{serialNo}: the tablet controller. */
export function Component() {
  const { serialNo = '' } = useParams();
  return (
    <RobotGate key={serialNo} serialNo={serialNo}>
      {(teleop) => <BasicController key={teleop.robotId} teleop={teleop} />}
    </RobotGate>
  );
}
