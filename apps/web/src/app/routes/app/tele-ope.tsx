import { Navigate, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { RunningFlowLine } from '@/features/flow-runs/components/running-flow';
import { OperatorScreen } from '@/features/teleop/components/operator-screen';
import { DepthPress } from '@/features/teleop/components/depth-press';
import { RobotGate } from '@/features/teleop/components/robot-gate';
import { WorkPlanAction } from '@/features/work-plans/components/work-plan-run';
import { loadSection } from '@/lib/i18n';

/**
 * The robot messages (F0001-F0007, D0001, emergency stop...) and battery texts live in the robots
 * section; the running flow's step kinds in the flows section.
 */
export async function loader() {
  await Promise.all([loadSection('robots'), loadSection('flows'), loadSection('workPlans')]);
  return null;
}

/** /app/tele-ope/{mode}/{serialNo}: `drive` asks for the controls, `watch` only watches; anything else drives. */
export function Component() {
  const { mode, serialNo = '' } = useParams();
  if (mode !== 'drive' && mode !== 'watch')
    return <Navigate to={paths.app.teleOpe.getHref(serialNo, 'drive')} replace />;
  return (
    <RobotGate key={serialNo} serialNo={serialNo}>
      {(teleop) => (
        <OperatorScreen
          key={`${teleop.robotId}-${mode}`}
          teleop={teleop}
          mode={mode}
          flowStatus={<RunningFlowLine robotId={teleop.robotId} />}
          workPlanAction={(enabled) => (
            <WorkPlanAction
              robotId={teleop.robotId}
              buildingId={teleop.buildingId}
              enabled={enabled}
              renderPress={(arm, onPressed) => (
                <DepthPress
                  robotId={String(teleop.robotId)}
                  serialNo={teleop.serialNo}
                  arm={arm}
                  onPressed={onPressed}
                />
              )}
            />
          )}
        />
      )}
    </RobotGate>
  );
}
