import { Text } from '@mantine/core';
import type { FlowRun } from '@portal/contract';
import { useCallback, type ReactNode } from 'react';
import { useActiveRun, useActiveRuns } from '../api';
import { useRunWords } from '../words';

/** How often the operator screens read the running flows' steps (ms). */
const OPERATOR_POLL_MS = 2000;

/** "Night patrol: Take photo (photo)", or with "(paused)" after the name. */
function useRunningText() {
  const { t, stepKind } = useRunWords();
  return (run: FlowRun) =>
    t(run.status === 'paused' ? 'flowRun.operatorCard.paused' : 'flowRun.operatorCard.value', {
      flow: run.flowName,
      step: run.currentStepId ? `${stepKind(run.currentStepKind)} (${run.currentStepId})` : '—',
    });
}

/** The operator screen's line about the robot's running flow: its name and current step (nothing when none). */
export function RunningFlowLine({ robotId }: { robotId: number }) {
  const { t } = useRunWords();
  const text = useRunningText();
  const { data: run } = useActiveRun(robotId, OPERATOR_POLL_MS);
  if (!run) return null;
  return (
    <Text size="xs" data-testid="teleop-flow" data-status={run.status} lineClamp={1}>
      <Text span c="dimmed">
        {t('flowRun.operatorCard.label')}:
      </Text>{' '}
      {text(run)}
    </Text>
  );
}

function RunningFlowNote({ run }: { run: FlowRun }) {
  const { t } = useRunWords();
  const text = useRunningText();
  return (
    <Text size="xs" lineClamp={1} data-testid={`robot-flow-${run.robotId}`} data-status={run.status} title={text(run)}>
      <Text span c="dimmed">
        {t('flowRun.operatorCard.label')}:
      </Text>{' '}
      {text(run)}
    </Text>
  );
}

/**
 * The robot control grid's running flows: one request for every active run in scope, read every two
 * seconds; the function puts a robot's running flow on its card or row (stable while nothing changes,
 * so the memoized cards do not redraw).
 */
export function useRunningFlowNotes(): (robotId: number) => ReactNode {
  const runs = useActiveRuns(OPERATOR_POLL_MS).data;
  return useCallback(
    (robotId: number) => {
      const run = runs?.get(robotId);
      return run ? <RunningFlowNote run={run} /> : null;
    },
    [runs],
  );
}
