import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { positiveInt } from '@/lib/list-params';

/** A path id (`/organization/:id`), or null when it is not a positive integer. */
export const idParam = (v: string | undefined | null): number | null => positiveInt(v);

/** A path id that is not a positive integer (`/organization/abc`): nothing to load. */
export function InvalidId() {
  const { t } = useTranslation();
  return (
    <Alert color="red" role="alert" data-testid="bad-id">
      {t('errors.NOT_FOUND')}
    </Alert>
  );
}
