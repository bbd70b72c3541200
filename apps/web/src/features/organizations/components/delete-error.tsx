import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/lib/api-client';
import { useErrorText } from '@/lib/i18n';

const inUseKinds = ['buildings', 'operators', 'contracts', 'files'] as const;
type InUseKind = (typeof inUseKinds)[number];
const isInUseKind = (v: string): v is InUseKind => (inUseKinds as readonly string[]).includes(v);

/** Why a delete failed; IN_USE names what still uses the record. */
export function DeleteError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  if (isApiError(error) && error.code === 'IN_USE') {
    const what = error.details
      .map((d) => d.path)
      .filter(isInUseKind)
      .map((k) => t(`people.inUseWhat.${k}`));
    return (
      <Alert color="red" role="alert" title={errorText(error)} data-testid="delete-in-use">
        {what.length > 0 ? t('people.inUse', { what: what.join(t('people.listSeparator')) }) : null}
      </Alert>
    );
  }
  return (
    <Alert color="red" role="alert">
      {errorText(error)}
    </Alert>
  );
}
