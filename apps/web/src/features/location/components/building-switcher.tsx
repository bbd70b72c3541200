import { Alert, Button, Group, Radio, ScrollArea, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { useErrorText } from '@/lib/i18n';
import { useChangeLocation } from '../api/change-location';
import { useCurrentBuilding } from '../use-current-building';
import { showNotification } from '@/lib/notify';

/** Administrators choose the current building among the active ones (POST /my/location). */
export function BuildingSwitcher({ onDone }: { onDone?: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { buildingId, query } = useCurrentBuilding();
  const [selected, setSelected] = useState<string | null>(buildingId === null ? null : String(buildingId));
  const change = useChangeLocation();

  if (query.isPending) return <PageLoader />;
  if (query.isError) return <QueryError error={query.error} onRetry={() => void query.refetch()} />;

  const buildings = query.data.filter((b): b is typeof b & { id: number } => typeof b.id === 'number');
  const submit = () => {
    const target = buildings.find((b) => String(b.id) === selected);
    if (!target) return;
    change.mutate(target.id, {
      onSuccess: () => {
        showNotification({ color: 'green', message: t('location.changed', { name: target.name ?? '' }) });
        onDone?.();
      },
    });
  };

  return (
    <Stack>
      {change.isError && (
        <Alert color="red" role="alert">
          {errorText(change.error)}
        </Alert>
      )}
      <Radio.Group label={t('location.select')} value={selected} onChange={setSelected}>
        <ScrollArea.Autosize mah={320} mt="xs">
          <Stack gap="xs">
            {buildings.map((b) => (
              <Radio key={b.id} value={String(b.id)} label={b.name} />
            ))}
          </Stack>
        </ScrollArea.Autosize>
      </Radio.Group>
      <Group justify="flex-end">
        <Button
          onClick={submit}
          disabled={selected === null || selected === String(buildingId)}
          loading={change.isPending}
          data-testid="location-submit"
        >
          {t('location.submit')}
        </Button>
      </Group>
    </Stack>
  );
}
