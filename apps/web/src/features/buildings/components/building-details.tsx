import { Alert, Button, Paper } from '@mantine/core';
import type { Building } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useDeleteBuilding } from '../api/delete-building';
import { useUpdateBuilding } from '../api/update-building';
import { hasCode } from '@/lib/server-errors';
import { inUseWhat } from '../server-errors';
import { BuildingForm, buildingFormValues } from './building-form';
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
  const update = useUpdateBuilding();
  const remove = useDeleteBuilding();
  const [confirming, setConfirming] = useState(false);
  // Remounts the form with the server's values after "reload".
  const [generation, setGeneration] = useState(0);

  const [fresh, setFresh] = useState<Building | null>(null);
  const current = fresh && fresh.updatedAt >= building.updatedAt ? fresh : building;

  const reload = async () => {
    const data = await onReload();
    if (data) setFresh(data);
    update.reset();
    setGeneration((g) => g + 1);
  };

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
        key={generation}
        sessionType={sessionType}
        readOnly={!canManage}
        defaultValues={buildingFormValues(current)}
        saving={update.isPending}
        error={update.error}
        onReload={() => void reload()}
        onSubmit={async (values) => {
          const { updatedAt, ...rest } = values;
          const saved = await update.mutateAsync({
            id: building.id,
            body: { ...rest, updatedAt: updatedAt ?? building.updatedAt },
          });
          showNotification({ color: 'green', message: t('common.saved') });
          return buildingFormValues(saved);
        }}
        extraActions={
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
