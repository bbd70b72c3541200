import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A path id that is not a positive integer: nothing to load. */
export function InvalidId() {
  const { t } = useTranslation();
  return (
    <Alert color="red" role="alert">
      {t('errors.NOT_FOUND')}
    </Alert>
  );
}

export const idParam = (v: string | undefined | null): number | null => {
  const n = Number(v);
  return v && Number.isInteger(n) && n >= 1 ? n : null;
};
