import { Alert, Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/lib/i18n';

interface QueryErrorProps {
  error: unknown;
  onRetry?: () => void;
}

export function QueryError({ error, onRetry }: QueryErrorProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  return (
    <Alert color="red" title={t('common.loadFailed')} role="alert">
      <Group justify="space-between">
        <span>{errorText(error)}</span>
        {onRetry && (
          <Button size="xs" variant="light" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        )}
      </Group>
    </Alert>
  );
}
