import { Button, Select, Stack, Text, Title } from '@mantine/core';
import { fleetTopic, type SentOrder } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useFleet } from '@/lib/realtime';
import { useStartTrialRun } from '../api/start-trial-run';
import type { EditorStore } from '../model/store';
import { robotFloor } from './live-feed';

interface TrialRunProps {
  store: EditorStore;
  floorId: number;
  buildingId: number;
}

/** Sends a robot on this floor along a route of the saved map; the live layer shows it driving. */
export function TrialRun({ store, floorId, buildingId }: TrialRunProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  // Positions are not needed here: the list re-renders on status changes, not on every pose.
  const fleet = useFleet(fleetTopic(buildingId), { poses: false });
  const robots = [...fleet.robots.values()].filter((r) => robotFloor(r) === floorId);
  const [robotId, setRobotId] = useState<string | null>(null);
  /** The trial run this panel started last: its progress follows the robot's live state. */
  const [started, setStarted] = useState<StartedRun | null>(null);
  const start = useStartTrialRun();
  const routes = store.doc.routes;
  const routeId = store.selectedRouteId;

  const run = () => {
    const robot = robots.find((r) => String(r.id) === robotId);
    const route = routes.find((r) => r.id === routeId);
    if (!robot || !route) return;
    start.mutate(
      { robotId: robot.id, floorId, routeId: route.id },
      {
        onSuccess: (order) => {
          setStarted({ orderId: order.orderId, robotId: robot.id, robot: robot.name, route: route.name });
          showNotification({
            color: 'teal',
            message: t('mapEditor.trial.started', { robot: robot.name, route: route.name }),
          });
        },
        // The server's own reason (busy, offline, no path, another floor...), never a guess from the code.
        onError: (e) => showNotification({ color: 'red', message: errorText(e) }),
      },
    );
  };

  return (
    <Stack
      gap={6}
      p="xs"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
      data-testid="trial-run"
    >
      <Title order={3} size="h6">
        {t('mapEditor.trial.title')}
      </Title>
      {robots.length === 0 ? (
        <Text size="xs" c="dimmed">
          {t('mapEditor.trial.noRobots')}
        </Text>
      ) : (
        <Select
          size="xs"
          label={t('mapEditor.trial.robot')}
          data={robots.map((r) => ({ value: String(r.id), label: r.name, disabled: !r.live.online }))}
          value={robotId}
          onChange={setRobotId}
        />
      )}
      {routes.length === 0 ? (
        <Text size="xs" c="dimmed">
          {t('mapEditor.trial.noRoutes')}
        </Text>
      ) : (
        <Select
          size="xs"
          label={t('mapEditor.trial.route')}
          data={routes.map((r) => ({ value: String(r.id), label: r.name }))}
          value={routeId === null ? null : String(routeId)}
          onChange={(v) => store.selectRoute(v === null ? null : Number(v))}
        />
      )}
      <Button size="xs" disabled={!robotId || routeId === null} loading={start.isPending} onClick={run}>
        {t('mapEditor.trial.start')}
      </Button>
      {started && <TrialProgress run={started} lastOrder={fleet.robots.get(started.robotId)?.live.lastOrder ?? null} />}
    </Stack>
  );
}

interface StartedRun {
  orderId: string;
  robotId: number;
  robot: string;
  route: string;
}

/** The robot's errors for an order it refused that have their own words (else its type and description). */
const REFUSALS = ['noRouteError', 'validationError', 'orderError', 'orderUpdateError'] as const;

/** What became of the order: the robot's `lastOrder` while it is this order, else `sent` or superseded. */
export function trialProgress(
  run: Pick<StartedRun, 'orderId'>,
  lastOrder: SentOrder | null,
): SentOrder['status'] | 'replaced' {
  if (!lastOrder) return 'sent';
  return lastOrder.orderId === run.orderId ? lastOrder.status : 'replaced';
}

/**
 * The trial run's progress (issue 11 item 10): sent, accepted, refused by the robot with its reason
 * in words, finished; from the live fleet state the server keeps for each order it sends.
 */
function TrialProgress({ run, lastOrder }: { run: StartedRun; lastOrder: SentOrder | null }) {
  const { t } = useTranslation();
  const status = trialProgress(run, lastOrder);
  let text: string;
  if (status === 'rejected') {
    const type = lastOrder?.error?.type ?? '';
    const reason = (REFUSALS as readonly string[]).includes(type)
      ? t(`mapEditor.trial.refusal.${type as (typeof REFUSALS)[number]}`)
      : t('mapEditor.trial.refusal.other', {
          type: [type, lastOrder?.error?.description].filter(Boolean).join(': ') || '?',
        });
    text = t('mapEditor.trial.progress.rejected', { reason });
  } else text = t(`mapEditor.trial.progress.${status}`);
  return (
    <Stack gap={0} data-testid="trial-progress" data-status={status} role="status">
      <Text size="xs" c="dimmed">
        {t('mapEditor.trial.progress.title', { robot: run.robot, route: run.route })}
      </Text>
      <Text size="xs" c={status === 'rejected' ? 'red' : status === 'finished' ? 'teal' : undefined}>
        {text}
      </Text>
    </Stack>
  );
}
