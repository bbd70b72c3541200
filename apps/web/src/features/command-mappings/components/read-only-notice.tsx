import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Spec §6: non-admins are told to contact their organization administrator. */
export function ReadOnlyNotice() {
  const { t } = useTranslation();
  return (
    <Alert color="gray" variant="light" data-testid="command-mapping-read-only">
      {t('commandMappings.readOnly')}
    </Alert>
  );
}
