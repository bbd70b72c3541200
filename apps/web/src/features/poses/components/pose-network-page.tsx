import { Alert, Anchor, Button, Paper, Stack, Text, Title } from '@mantine/core';
import type { PoseNetwork } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useDeletePoseNetwork } from '../api/delete-pose-network';
import { usePoseNetwork } from '../api/get-pose-network';
import { PoseNetworkForm } from './pose-network-form';

/** /pose-network/create. */
export function PoseNetworkCreate() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Stack>
      <Anchor component={Link} to={paths.poseNetwork.list.getHref()} size="sm">
        ← {t('poseNetworks.back')}
      </Anchor>
      <Title order={1} size="h2">
        {t('poseNetworks.createTitle')}
      </Title>
      <Paper withBorder p="md">
        <PoseNetworkForm
          cancelTo={paths.poseNetwork.list.getHref()}
          onCreated={(network) => void navigate(paths.poseNetwork.detail.getHref(network.id), { replace: true })}
        />
      </Paper>
    </Stack>
  );
}

/** /pose-network/:id: view or edit a network (read-only for non-admins; the checker works for all). */
export function PoseNetworkPage({ id, canManage }: { id: number; canManage: boolean }) {
  const network = usePoseNetwork(id);
  if (network.isPending) return <PageLoader />;
  if (network.isError) return <QueryError error={network.error} onRetry={() => void network.refetch()} />;
  return (
    <NetworkEdit network={network.data} canManage={canManage} onReload={async () => (await network.refetch()).data} />
  );
}

function NetworkEdit({
  network,
  canManage,
  onReload,
}: {
  network: PoseNetwork;
  canManage: boolean;
  onReload: () => Promise<PoseNetwork | undefined>;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const remove = useDeletePoseNetwork();
  const [confirming, setConfirming] = useState(false);

  return (
    <Stack>
      <Anchor component={Link} to={paths.poseNetwork.list.getHref()} size="sm">
        ← {t('poseNetworks.back')}
      </Anchor>
      <div>
        <Title order={1} size="h2" data-testid="network-title">
          {network.name}
        </Title>
        <Text c="dimmed" size="sm">
          {t(`poseCommon.armModels.${network.armModel}`)} · {t(`poseCommon.armTypes.${network.armType}`)} ·{' '}
          {network.buildingName ?? t('poseCommon.wholeOrganization')}
        </Text>
      </div>
      {!canManage && (
        <Text c="dimmed" size="sm">
          {t('poseCommon.readOnly')}
        </Text>
      )}
      {remove.isError && (
        <Alert color="red" role="alert">
          {errorText(remove.error)}
        </Alert>
      )}
      <Paper withBorder p="md">
        <PoseNetworkForm
          network={network}
          onReload={onReload}
          readOnly={!canManage}
          extraActions={
            <Button color="red" variant="light" onClick={() => setConfirming(true)} data-testid="network-delete">
              {t('poseCommon.delete')}
            </Button>
          }
        />
      </Paper>
      <ConfirmDialog
        opened={confirming}
        title={t('poseNetworks.deleteTitle')}
        confirmLabel={t('poseCommon.delete')}
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(network.id, {
            onSettled: () => setConfirming(false),
            onSuccess: () => {
              showNotification({ color: 'green', message: t('poseCommon.deleted') });
              void navigate(paths.poseNetwork.list.getHref());
            },
          })
        }
      >
        {t('poseNetworks.deleteBody', { name: network.name })}
      </ConfirmDialog>
    </Stack>
  );
}
