import { Alert, Badge, Button, Drawer, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import type { WorkPlan, WorkPlanRun, WorkPlanStep } from '@portal/contract';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCloseRun, useConfirmStep, useFloorWorkPlans, useOpenRun, useRobotFloor, useStartRun } from '../api';

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
  const onOpen = () => {
    setOpen(true);
    if (!run.data && list.length === 1 && enabled) begin(list[0]!);
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
      {steps.map((s, i) => {
        const current = i === run.currentStep;
        const checked = done.has(s.id);
        return (
          <Paper
            key={s.id}
            withBorder
            p="xs"
            bg={current ? 'var(--mantine-color-blue-light)' : undefined}
            data-testid={`wp-run-step-${i}`}
            data-done={checked ? 'true' : 'false'}
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
