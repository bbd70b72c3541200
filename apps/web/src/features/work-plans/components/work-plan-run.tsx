import { Alert, Badge, Button, Drawer, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import type { WorkPlan, WorkPlanRun, WorkPlanStep } from '@portal/contract';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/lib/i18n';
import {
  useCloseRun,
  useConfirmStep,
  useFloorWorkPlans,
  useMoveStep,
  useOpenRun,
  useRobotFloor,
  useStartRun,
} from '../api';

/** The arm press on the depth image (the teleop feature's DepthPress, given by the route). */
export type PressRenderer = (
  arm: 'right' | 'left',
  onPressed: (r: { hit: boolean; target?: string }) => void,
) => ReactNode;

interface WorkPlanActionProps {
  robotId: number;
  buildingId: number;
  /** The operator may act (controls held, robot online). */
  enabled: boolean;
  renderPress?: PressRenderer;
}

/**
 * The operator screen's "work plan" action: a chooser of the enabled work plans of the robot's
 * building and floor (skipped when exactly one exists), then the panel of the open run: its steps
 * with a check mark as the operator confirms each; a button step shows the depth image to press
 * on. The run is the server's (it stays open across reloads) until the operator closes it.
 */
export function WorkPlanAction({ robotId, buildingId, enabled, renderPress }: WorkPlanActionProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const run = useOpenRun(robotId);
  const floorId = useRobotFloor(robotId);
  const plans = useFloorWorkPlans(buildingId, floorId.data ?? null);
  const start = useStartRun();
  const list = (plans.data?.items ?? []) as WorkPlan[];
  const begin = (plan: WorkPlan) => start.mutate({ workPlanId: plan.id, robotId });
  // Opened with exactly one plan of the floor and no open run: that plan starts without a chooser
  // (once per opening, as soon as the run and the plans are known).
  const autoStarted = useRef(false);
  const onlyPlan = run.isSuccess && !run.data && plans.isSuccess && list.length === 1 ? list[0]! : null;
  useEffect(() => {
    if (!open || autoStarted.current || !onlyPlan || !enabled || start.isPending) return;
    autoStarted.current = true;
    start.mutate({ workPlanId: onlyPlan.id, robotId });
  }, [open, onlyPlan, enabled, start, robotId]);
  const onOpen = () => {
    autoStarted.current = false;
    setOpen(true);
  };

  return (
    <>
      <Button size="xs" variant={run.data ? 'filled' : 'default'} onClick={onOpen} data-testid="teleop-workplan">
        {t('workPlans.run.action')}
        {run.data ? ` · ${run.data.workPlanName}` : ''}
      </Button>
      <Drawer
        opened={open}
        onClose={() => setOpen(false)}
        position="right"
        size="md"
        title={t('workPlans.run.title')}
        data-testid="wp-run-drawer"
      >
        {run.isPending || start.isPending ? (
          <Loader size="sm" />
        ) : run.data ? (
          <RunPanel run={run.data} enabled={enabled} renderPress={renderPress} onClosed={() => setOpen(false)} />
        ) : (
          <Stack gap="xs" data-testid="wp-run-chooser">
            <Text size="sm">{t('workPlans.run.choose')}</Text>
            {list.length === 0 && (
              <Text size="sm" c="dimmed" data-testid="wp-run-none">
                {t('workPlans.run.none')}
              </Text>
            )}
            {list.map((p) => (
              <Button
                key={p.id}
                variant="light"
                justify="space-between"
                disabled={!enabled}
                onClick={() => begin(p)}
                data-testid={`wp-run-choose-${p.id}`}
              >
                {p.name}
              </Button>
            ))}
          </Stack>
        )}
      </Drawer>
    </>
  );
}

function RunPanel({
  run,
  enabled,
  renderPress,
  onClosed,
}: {
  run: WorkPlanRun;
  enabled: boolean;
  renderPress?: PressRenderer;
  onClosed: () => void;
}) {
  const { t } = useTranslation();
  const confirm = useConfirmStep();
  const move = useMoveStep();
  const errorText = useErrorText();
  const close = useCloseRun();
  const [pressed, setPressed] = useState<{ step: string; hit: boolean; target?: string } | null>(null);
  const steps = run.definition.steps;
  const done = new Set(run.doneSteps);
  const allDone = steps.every((s) => done.has(s.id));
  return (
    <Stack gap="sm" data-testid="wp-run-panel">
      <Text fw={600} data-testid="wp-run-name">
        {run.workPlanName}
      </Text>
      {run.flowRunId !== null && (
        <Alert color="yellow" p="xs" data-testid="wp-run-flow">
          {t('workPlans.run.flowPaused')}
        </Alert>
      )}
      {steps.map((s, i) => {
        const current = i === run.currentStep;
        const checked = done.has(s.id);
        const moveOf = run.move?.stepId === s.id ? run.move : null;
        const movable = s.type === 'move' && s.main.kind === 'moveToWaypoint' && s.main.waypointId != null;
        return (
          <Paper
            key={s.id}
            withBorder
            p="xs"
            bg={current ? 'var(--mantine-color-blue-light)' : undefined}
            data-testid={`wp-run-step-${i}`}
            data-done={checked ? 'true' : 'false'}
            data-move={moveOf?.status ?? 'none'}
          >
            <Group justify="space-between" wrap="nowrap">
              <Group gap="xs" wrap="nowrap">
                <Badge
                  color={checked ? 'green' : 'gray'}
                  variant={checked ? 'filled' : 'light'}
                  aria-label={checked ? t('workPlans.run.done') : t('workPlans.run.todo')}
                >
                  {checked ? '✓' : i + 1}
                </Badge>
                <Text size="sm">{s.title}</Text>
              </Group>
              <Text size="xs" c="dimmed">
                {t(`workPlans.steps.types.${s.type}`)}
              </Text>
            </Group>
            {current && !checked && (
              <Stack gap="xs" mt="xs">
                <StepHint step={s} />
                {movable && (
                  <Group gap="xs">
                    <Button
                      size="xs"
                      variant="light"
                      disabled={!enabled || moveOf?.status === 'moving'}
                      loading={move.isPending}
                      onClick={() => move.mutate({ id: run.id, stepId: s.id })}
                      data-testid="wp-run-go"
                    >
                      {t('workPlans.run.go')}
                    </Button>
                    {moveOf?.status === 'moving' && (
                      <Group gap={4} data-testid="wp-run-moving">
                        <Loader size="xs" />
                        <Text size="sm">{t('workPlans.run.moving')}</Text>
                      </Group>
                    )}
                  </Group>
                )}
                {moveOf?.status === 'failed' && (
                  <Text size="sm" c="red" data-testid="wp-run-move-failed">
                    {moveOf.errorCode === 'WORK_PLAN_MOVE_STOPPED'
                      ? t('workPlans.run.moveStopped')
                      : t('workPlans.run.moveRefused', { code: moveOf.errorCode ?? '' })}
                  </Text>
                )}
                {move.isError && move.variables?.stepId === s.id && (
                  <Text size="sm" c="red" data-testid="wp-run-move-error">
                    {errorText(move.error)}
                  </Text>
                )}
                {(s.type === 'pressRight' || s.type === 'pressLeft') &&
                  (renderPress ? (
                    renderPress(s.type === 'pressRight' ? 'right' : 'left', (r) => setPressed({ step: s.id, ...r }))
                  ) : (
                    <Alert color="gray">{t('workPlans.run.noArm')}</Alert>
                  ))}
                {pressed?.step === s.id && (
                  <Text size="sm" c={pressed.hit ? 'green' : 'orange'} data-testid="wp-run-pressed">
                    {pressed.hit
                      ? t('workPlans.run.pressed', { target: pressed.target ?? '' })
                      : t('workPlans.run.missed')}
                  </Text>
                )}
                <Button
                  size="xs"
                  disabled={!enabled}
                  loading={confirm.isPending}
                  onClick={() => confirm.mutate({ id: run.id, stepId: s.id })}
                  data-testid="wp-run-confirm"
                >
                  {t('workPlans.run.confirm')}
                </Button>
              </Stack>
            )}
          </Paper>
        );
      })}
      {allDone && (
        <Text size="sm" c="green" data-testid="wp-run-all-done">
          {t('workPlans.run.allDone')}
        </Text>
      )}
      <Button
        variant={allDone ? 'filled' : 'light'}
        color={allDone ? 'blue' : 'gray'}
        loading={close.isPending}
        onClick={() => close.mutate(run.id, { onSuccess: onClosed })}
        data-testid="wp-run-close"
      >
        {t('workPlans.run.close')}
      </Button>
    </Stack>
  );
}

function StepHint({ step: s }: { step: WorkPlanStep }) {
  const { t } = useTranslation();
  const m = s.main;
  const text =
    m.kind === 'moveToWaypoint'
      ? t('workPlans.run.hintMove', { id: m.waypointId ?? '' })
      : m.kind === 'pose'
        ? t('workPlans.run.hintPose')
        : m.kind === 'pressButton'
          ? t('workPlans.run.hintPress', { target: m.target })
          : m.instruction;
  return (
    <Text size="sm" data-testid="wp-run-hint">
      {text}
      {s.after.waitSeconds > 0 ? ` ${t('workPlans.run.hintWait', { seconds: s.after.waitSeconds })}` : ''}
    </Text>
  );
}
