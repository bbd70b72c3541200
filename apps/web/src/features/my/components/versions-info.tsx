import { Stack, Table, Title } from '@mantine/core';
import { APP_VERSION } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { useVersions } from '../api/get-versions';

const serverRows = ['app', 'server', 'api', 'node', 'database'] as const;

export function VersionsInfo() {
  const { t } = useTranslation();
  const versions = useVersions();
  return (
    <Stack maw={520}>
      <Title order={1} size="h2">
        {t('my.versions.title')}
      </Title>
      <Table withTableBorder>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th scope="row">{t('my.versions.web')}</Table.Th>
            <Table.Td data-testid="version-web">{APP_VERSION}</Table.Td>
          </Table.Tr>
          {versions.data &&
            serverRows.map((k) => (
              <Table.Tr key={k}>
                <Table.Th scope="row">{t(`my.versions.${k}`)}</Table.Th>
                <Table.Td>{versions.data[k]}</Table.Td>
              </Table.Tr>
            ))}
        </Table.Tbody>
      </Table>
      {versions.isPending && <PageLoader />}
      {versions.isError && <QueryError error={versions.error} onRetry={() => void versions.refetch()} />}
    </Stack>
  );
}
