import '@/styles/full';
import { Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { InitDataImport } from '@/features/init-data/components/init-data-import';
import { RequireSystemAdmin } from '../../guards/require-role';

export function Component() {
  const { t } = useTranslation();
  return (
    <Paper withBorder shadow="sm" p="xl" w="100%" maw={900}>
      <RequireSystemAdmin message={t('initData.forbidden')}>
        <InitDataImport />
      </RequireSystemAdmin>
    </Paper>
  );
}
