import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A positive integer route parameter, or null. */
export function toId(v: string | undefined): number | null {
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 ? n : null;
}

/** `/organization/abc`: no such record. */
export function BadId() {
  const { t } = useTranslation();
  return (
    <Alert color="red" role="alert" data-testid="bad-id">
      {t('errors.NOT_FOUND')}
    </Alert>
  );
}
