import { Alert, Button, Group, List, Modal, NativeSelect, ScrollArea, Stack, Text } from '@mantine/core';
import type { FlowRun } from '@portal/contract';
import { useState } from 'react';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useBuildingFlows, useBuildingRobots, useStartFlowRun } from '../api';
import { healthProblemsOf, useRunWords } from '../words';
import { FlowRunPanel } from './flow-run-panel';

interface Named {
  id: number;
  name: string;
  buildingId: number;
}

/** Why a start was refused, in words: the health check's problems listed, else the error's text. */
export function StartRefusal({ error }: { error: unknown }) {
  const { t, healthProblem } = useRunWords();
  const errorText = useErrorText();
  const problems = healthProblemsOf(error);
  return (
    <Alert color="red" role="alert" data-testid="flow-run-refused">
      {problems.length > 0 ? (
        <Stack gap={4}>
          <Text size="sm">{t('flowRun.healthFailed')}</Text>
          <List size="sm" data-testid="flow-run-health-problems">
            {problems.map((p) => (
              <List.Item key={p} data-problem={p}>
                {healthProblem(p)}
              </List.Item>
            ))}
          </List>
        </Stack>
      ) : (
        errorText(error)
      )}
    </Alert>
  );
}

interface StartRunDialogProps {
  opened: boolean;
  onClose: () => void;
  /** Run this flow: the user chooses one of its building's robots... */
  flow?: Named;
  /** ...or on this robot: the user chooses one of its building's enabled flows. */
  robot?: Named;
  /** After the start: the dialog shows the run's progress unless told otherwise. */
  onStarted?: (run: FlowRun) => void;
}

/**
 * "Run on robot" / "Run flow": the choice of robot (or flow) of the same building, then the start;
 * a refusal (flow already running, the health check's problems) is shown in words. Once started,
 * the dialog shows the run's progress (or hands the run to `onStarted`).
 */
export function StartRunDialog({ opened, onClose, flow, robot, onStarted }: StartRunDialogProps) {
  const { t } = useRunWords();
  const buildingId = flow?.buildingId ?? robot?.buildingId ?? 0;
  const robots = useBuildingRobots(buildingId, opened && flow !== undefined);
  const flows = useBuildingFlows(buildingId, opened && robot !== undefined);
  const start = useStartFlowRun();
  const [choice, setChoice] = useState('');
  const [runId, setRunId] = useState<number | null>(null);

  const close = () => {
    start.reset();
    setChoice('');
    setRunId(null);
    onClose();
  };
  const options = flow
    ? (robots.data ?? []).map((r) => ({ value: String(r.id), label: r.name }))
    : (flows.data ?? []).map((f) => ({ value: String(f.id), label: f.name }));
  const loaded = flow ? robots.isSuccess : flows.isSuccess;
  const title =
    runId !== null
      ? t('flowRun.panel.title')
      : flow
        ? t('flowRun.runOnRobotTitle', { flow: flow.name })
        : t('flowRun.runFlowTitle', { robot: robot?.name ?? '' });

  const submit = () => {
    const id = Number(choice);
    if (!(id > 0)) return;
    const vars = flow ? { flowId: flow.id, robotId: id } : { flowId: id, robotId: robot?.id ?? 0 };
    start.mutate(vars, {
      onSuccess: (run) => {
        showNotification({
          color: 'green',
          message: t('flowRun.started', { flow: run.flowName, robot: run.robotName }),
        });
        if (onStarted) {
          close();
          onStarted(run);
        } else setRunId(run.id);
      },
    });
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={title}
      size={runId !== null ? 'xl' : 'md'}
      centered
      scrollAreaComponent={ScrollArea.Autosize}
    >
      {runId !== null ? (
        <Stack>
          <FlowRunPanel runId={runId} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.close')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <Stack>
            {(flow ? robots.isError : flows.isError) && (
              <Alert color="red" role="alert">
                {t('common.loadFailed')}
              </Alert>
            )}
            {loaded && options.length === 0 ? (
              <Text c="dimmed" size="sm" data-testid="flow-run-no-choice">
                {flow ? t('flowRun.noRobots') : t('flowRun.noFlows')}
              </Text>
            ) : (
              <NativeSelect
                label={flow ? t('flowRun.robot') : t('flowRun.flow')}
                value={choice}
                onChange={(e) => {
                  setChoice(e.currentTarget.value);
                  start.reset();
                }}
                data={[{ value: '', label: t('flowRun.choose'), disabled: true }, ...options]}
                disabled={!loaded}
                data-testid="flow-run-choice"
              />
            )}
            {start.isError && <StartRefusal error={start.error} />}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" disabled={choice === ''} loading={start.isPending}>
                {t('flowRun.start')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

/** The flow editor's "Run on robot" button (the flow as saved runs). */
export function RunOnRobotButton({ flow }: { flow: Named }) {
  const { t } = useRunWords();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="light" onClick={() => setOpened(true)} data-testid="flow-run-on-robot">
        {t('flowRun.runOnRobot')}
      </Button>
      <StartRunDialog opened={opened} onClose={() => setOpened(false)} flow={flow} />
    </>
  );
}

/** The robot page's "Run flow" button: the run then shows in the page's flow section. */
export function RunFlowButton({ robot, onStarted }: { robot: Named; onStarted?: (run: FlowRun) => void }) {
  const { t } = useRunWords();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button size="xs" variant="light" onClick={() => setOpened(true)} data-testid="flow-run-start">
        {t('flowRun.runFlow')}
      </Button>
      <StartRunDialog
        opened={opened}
        onClose={() => setOpened(false)}
        robot={robot}
        onStarted={onStarted ?? (() => undefined)}
      />
    </>
  );
}
