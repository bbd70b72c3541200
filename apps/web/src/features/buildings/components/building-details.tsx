import { Alert, Button, Paper } from '@mantine/core';
import type { Building } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useDeleteBuilding } from '../api/delete-building';
import { hasCode } from '@/lib/server-errors';
import { inUseWhat } from '../server-errors';
import { BuildingForm } from './building-form';
import { ConfirmDialog } from '@/components/confirm-dialog';

interface BuildingDetailsProps {
  building: Building;
  sessionType: number;
  canManage: boolean;
  onReload: () => Promise<Building | undefined>;
}

/** The building's own fields: edit (with conflict handling) and delete. */
export function BuildingDetails({ building, sessionType, canManage, onReload }: BuildingDetailsProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const remove = useDeleteBuilding();
  const [confirming, setConfirming] = useState(false);

  return (
    <Paper withBorder p="md">
      {remove.isError && (
        <Alert color="red" role="alert" mb="md" data-testid="building-delete-error">
          {hasCode(remove.error, 'IN_USE')
            ? t('buildings.delete.inUse', { what: inUseWhat(remove.error, t) })
            : errorText(remove.error)}
        </Alert>
      )}
      <BuildingForm
        building={building}
        sessionType={sessionType}
        readOnly={!canManage}
        onReload={onReload}
        startActions={
          <Button color="red" variant="light" onClick={() => setConfirming(true)} data-testid="building-delete">
            {t('buildings.delete.button')}
          </Button>
        }
      />
      <ConfirmDialog
        opened={confirming}
        title={t('buildings.delete.title')}
        confirmLabel={t('buildings.delete.confirm')}
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(building.id, {
            onSettled: () => setConfirming(false),
            onSuccess: () => {
              showNotification({ color: 'green', message: t('buildings.delete.done') });
              void navigate(paths.building.list.getHref());
            },
          })
        }
      >
        {t('buildings.delete.body', { name: building.name })}
      </ConfirmDialog>
    </Paper>
  );
}
