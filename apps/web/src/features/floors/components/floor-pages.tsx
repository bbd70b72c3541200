import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { floorLabel, type FloorDetail } from '@portal/contract';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useDeleteFloor } from '../api/delete-floor';
import { useFloor } from '../api/get-floor';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FloorForm } from './floor-form';
import { MapImage } from './map-image';

const BackLink = ({ buildingId, children }: { buildingId: number; children?: ReactNode }) => {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to={paths.building.detail.getHref(buildingId, 'floors')} size="sm">
      ← {children ?? t('floors.back')}
    </Anchor>
  );
};

/** /building/:buildingId/floor/create */
export function FloorCreatePage({ buildingId, buildingName }: { buildingId: number; buildingName?: string }) {
  const { t } = useTranslation();
  return (
    <Stack>
      <BackLink buildingId={buildingId}>
        {buildingName ? t('floors.building', { name: buildingName }) : undefined}
      </BackLink>
      <Title order={1} size="h2">
        {t('floors.createTitle')}
      </Title>
      <Paper withBorder p="md">
        <FloorForm buildingId={buildingId} />
      </Paper>
      <Text c="dimmed" size="sm">
        {t('floors.image.afterCreate')}
      </Text>
    </Stack>
  );
}

function FloorEditor({
  floor,
  canManage,
  onReload,
}: {
  floor: FloorDetail;
  canManage: boolean;
  onReload: () => Promise<FloorDetail | undefined>;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const remove = useDeleteFloor(floor.buildingId);
  const [confirming, setConfirming] = useState(false);
  return (
    <Paper withBorder p="md">
      {remove.isError && (
        <Alert color="red" role="alert" mb="md">
          {isApiError(remove.error) && remove.error.code === 'IN_USE'
            ? t('floors.delete.inUse')
            : errorText(remove.error)}
        </Alert>
      )}
      <FloorForm
        floor={floor}
        readOnly={!canManage}
        onReload={onReload}
        startActions={
          <Button color="red" variant="light" onClick={() => setConfirming(true)} data-testid="floor-delete">
            {t('floors.delete.button')}
          </Button>
        }
      />
      <ConfirmDialog
        opened={confirming}
        title={t('floors.delete.title')}
        confirmLabel={t('buildingCommon.delete')}
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(floor.id, {
            onSettled: () => setConfirming(false),
            onSuccess: () => {
              showNotification({ color: 'green', message: t('floors.delete.done') });
              void navigate(paths.building.detail.getHref(floor.buildingId, 'floors'));
            },
          })
        }
      >
        {t('floors.delete.body', { name: floor.name })}
      </ConfirmDialog>
    </Paper>
  );
}

/** /building/floor/:id: the floor's fields, its map image, deletion. */
export function FloorEditPage({ id, canManage }: { id: number; canManage: boolean }) {
  const { t } = useTranslation();
  const floor = useFloor(id);
  if (floor.isPending) return <PageLoader />;
  if (floor.isError) return <QueryError error={floor.error} onRetry={() => void floor.refetch()} />;
  const f = floor.data;
  return (
    <Stack>
      <BackLink buildingId={f.buildingId} />
      <Group justify="space-between" align="center">
        <Title order={1} size="h2">
          {/* The level label once: a floor named after its level ("1F") is not "1F 1F". */}
          {t('floors.editTitle')}: {f.name === floorLabel(f.index) ? f.name : `${floorLabel(f.index)} ${f.name}`}
        </Title>
        <Group gap="xs">
          <Button
            component={Link}
            to={paths.waypoint.list.getHref(f.id)}
            variant="default"
            data-testid="floor-waypoints"
          >
            {t('floors.waypoints')}
          </Button>
          <Button component={Link} to={paths.editor.floor.getHref(f.id)} data-testid="floor-open-editor">
            {t('floors.openEditor')}
          </Button>
        </Group>
      </Group>
      <FloorEditor floor={f} canManage={canManage} onReload={async () => (await floor.refetch()).data} />
      <MapImage floor={f} canManage={canManage} />
    </Stack>
  );
}
