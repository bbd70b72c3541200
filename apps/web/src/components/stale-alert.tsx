import { Alert, Button, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface StaleAlertProps {
  onReload?: () => void;
  /** The screen's own sentence; the generic one when left out. */
  children?: ReactNode;
  title?: string;
  testId?: string;
}

/** 409 STALE_UPDATE: the form keeps what was typed; reloading starts again from the stored record. */
export function StaleAlert({ onReload, children, title, testId = 'stale-alert' }: StaleAlertProps) {
  const { t } = useTranslation();
  return (
    <Alert color="orange" role="alert" title={title ?? t('people.staleTitle')} data-testid={testId}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text size="sm">{children ?? t('people.staleBody')}</Text>
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
