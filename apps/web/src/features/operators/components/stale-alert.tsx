import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** 409 STALE_UPDATE: the form keeps what was typed; reloading starts again from the stored record. */
export function StaleAlert({ onReload }: { onReload?: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="orange" role="alert" title={t('people.staleTitle')} data-testid="stale-alert">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text size="sm">{t('people.staleBody')}</Text>
        {onReload && (
          <Button
            size="xs"
            variant="light"
            color="orange"
            onClick={onReload}
            data-testid="stale-reload"
            style={{ flexShrink: 0 }}
          >
            {t('common.reload')}
          </Button>
        )}
      </Group>
    </Alert>
  );
}
