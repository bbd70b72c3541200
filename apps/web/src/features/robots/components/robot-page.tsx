import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { isAdmin, type Robot, type RobotCredentials } from '@portal/contract';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useSession } from '@/lib/session';
import { useDeleteRobot } from '../api/delete-robot';
import { useRobot } from '../api/get-robot';
import { useRotateCredentials } from '../api/rotate-credentials';
import { CredentialsModal } from './credentials-modal';
import { ActivityLog } from './activity-log';
import { LivePanel } from './live-panel';
import { RobotForm } from './robot-form';
import { modelLabel } from '../model-label';

interface RobotPageProps {
  id: number;
  canManage: boolean;
  /** The robot's flow runs and "Run flow" (composed by the route), under the live state. */
  flowSection?: (robot: Robot) => ReactNode;
}

/** /robot/:id: live state, commands, the registry fields (edit, delete, new credentials). */
export function RobotPage({ id, canManage, flowSection }: RobotPageProps) {
  const { t } = useTranslation();
  const robot = useRobot(id);
  if (robot.isPending) return <PageLoader />;
  if (robot.isError) return <QueryError error={robot.error} onRetry={() => void robot.refetch()} />;
  const r = robot.data;
  return (
    <Stack>
      <Anchor component={Link} to={paths.robot.list.getHref()} size="sm">
        ← {t('robotRegistry.back')}
      </Anchor>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2" data-testid="robot-title">
            {r.name}
          </Title>
          <Text c="dimmed" size="sm">
            {r.serialNo} · {modelLabel(r.model, t)} · {r.buildingName} · {r.floorName}
            {r.groupName ? ` · ${r.groupName}` : ''}
          </Text>
        </div>
        <Group gap="md" align="center">
          <TeleopLinks robot={r} />
          <Anchor component={Link} to={paths.robot.settingHistory.getHref(r.id)} data-testid="robot-history-link">
            {t('robotRegistry.settingHistory')}
          </Anchor>
        </Group>
      </Group>
      <LivePanel robot={r} />
      {flowSection?.(r)}
      <ActivityLog robotId={r.id} buildingId={r.buildingId} />
      <RobotSettings robot={r} canManage={canManage} onReload={async () => (await robot.refetch()).data} />
    </Stack>
  );
}

/** Remote operation (drive, watch, the tablet controller) and, for administrators, the robot console. */
function TeleopLinks({ robot }: { robot: Robot }) {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <Group gap="xs">
      <Button
        component={Link}
        to={paths.app.teleOpe.getHref(robot.serialNo, 'drive')}
        size="xs"
        data-testid="robot-operate"
      >
        {t('robotCommon.operate.button')}
      </Button>
      <Button
        component={Link}
        to={paths.app.teleOpe.getHref(robot.serialNo, 'watch')}
        size="xs"
        variant="light"
        data-testid="robot-watch"
      >
        {t('robotCommon.operate.watch')}
      </Button>
      <Button
        component={Link}
        to={paths.app.basic.getHref(robot.serialNo)}
        size="xs"
        variant="default"
        data-testid="robot-basic"
      >
        {t('robotCommon.operate.basic')}
      </Button>
      {session && isAdmin(session.type) && (
        <Button
          component={Link}
          to={paths.console.getHref(robot.serialNo)}
          size="xs"
          variant="default"
          data-testid="robot-console"
        >
          {t('robotCommon.operate.console')}
        </Button>
      )}
    </Group>
  );
}

function RobotSettings({
  robot,
  canManage,
  onReload,
}: {
  robot: Robot;
  canManage: boolean;
  onReload: () => Promise<Robot | undefined>;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const remove = useDeleteRobot();
  const rotate = useRotateCredentials();
  const [confirming, setConfirming] = useState<'delete' | 'rotate' | null>(null);
  const [credentials, setCredentials] = useState<RobotCredentials | null>(null);

  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={2} size="h4">
          {t('robotRegistry.tabs.settings')}
        </Title>
        {!canManage && (
          <Text c="dimmed" size="sm">
            {t('robotRegistry.readOnly')}
          </Text>
        )}
        {(remove.isError || rotate.isError) && (
          <Alert color="red" role="alert">
            {errorText(remove.error ?? rotate.error)}
          </Alert>
        )}
        <Group gap="xl">
          <Text size="sm">
            <Text span c="dimmed">
              {t('robotRegistry.mqttUsername')}:
            </Text>{' '}
            <Text span ff="monospace">
              {robot.mqttUsername}
            </Text>
          </Text>
          <Text size="sm">
            <Text span c="dimmed">
              {t('robotRegistry.manufacturer')}:
            </Text>{' '}
            {robot.manufacturer}
          </Text>
        </Group>
        <RobotForm
          robot={robot}
          onReload={onReload}
          readOnly={!canManage}
          extraActions={
            <>
              <Button color="red" variant="light" onClick={() => setConfirming('delete')} data-testid="robot-delete">
                {t('robotRegistry.delete.button')}
              </Button>
              <Button variant="light" onClick={() => setConfirming('rotate')} data-testid="robot-rotate">
                {t('robotRegistry.rotate.button')}
              </Button>
            </>
          }
        />
      </Stack>
      <ConfirmDialog
        opened={confirming === 'delete'}
        title={t('robotRegistry.delete.title')}
        confirmLabel={t('robotRegistry.delete.confirm')}
        loading={remove.isPending}
        onClose={() => setConfirming(null)}
        onConfirm={() =>
          remove.mutate(robot.id, {
            onSettled: () => setConfirming(null),
            onSuccess: () => {
              showNotification({ color: 'green', message: t('robotRegistry.delete.done') });
              void navigate(paths.robot.list.getHref());
            },
          })
        }
      >
        {t('robotRegistry.delete.body', { name: robot.name, serial: robot.serialNo })}
      </ConfirmDialog>
      <ConfirmDialog
        opened={confirming === 'rotate'}
        title={t('robotRegistry.rotate.title')}
        confirmLabel={t('robotRegistry.rotate.confirm')}
        color="orange"
        loading={rotate.isPending}
        onClose={() => setConfirming(null)}
        onConfirm={() =>
          rotate.mutate(robot.id, {
            onSettled: () => setConfirming(null),
            onSuccess: (c) => setCredentials(c),
          })
        }
      >
        {t('robotRegistry.rotate.body', { name: robot.name })}
      </ConfirmDialog>
      <CredentialsModal credentials={credentials} onDone={() => setCredentials(null)} />
    </Paper>
  );
}
