import { Badge, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { Contract } from '@portal/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { useFormat } from '@/lib/format';
import { useContract } from '../api/get-contract';

const flags = ['isArchive', 'isMiniAsilla', 'isLilz', 'isHakaruAi', 'isKanriroid', 'isAutoGuide'] as const;

function FlagCell({ on }: { on: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge color={on ? 'green' : 'gray'} variant="light">
      {on ? t('common.yes') : t('common.no')}
    </Badge>
  );
}

interface ContractDetailsProps {
  /** Org admins get a building switcher here (composed by the app layer). */
  buildingSwitcher?: ReactNode;
}

export function ContractDetails({ buildingSwitcher }: ContractDetailsProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const contract = useContract();
  if (contract.isPending) return <PageLoader />;
  if (contract.isError) return <QueryError error={contract.error} onRetry={() => void contract.refetch()} />;
  const c: Contract = contract.data;
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('contract.title')}
      </Title>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Text>
            {t('contract.endDate')}:{' '}
            <strong data-testid="contract-end-date">
              {c.contractEndAt ? format.ymd(c.contractEndAt) : t('contract.noEndDate')}
            </strong>
          </Text>
          <Text>
            {t('contract.payment')}: {c.paymentCompleted ? t('contract.paid') : t('contract.unpaid')}
          </Text>
          {c.maintenanceCompany && (
            <Text>
              {t('contract.maintenanceCompany')}: {c.maintenanceCompany.name}
              {c.maintenanceCompany.isOwner && ` (${t('contract.owner')})`}
            </Text>
          )}
        </Stack>
      </Paper>
      {buildingSwitcher}
      <Title order={2} size="h3">
        {t('contract.options')}
      </Title>
      <Table.ScrollContainer minWidth={640}>
        <Table striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('contract.building')}</Table.Th>
              {flags.map((f) => (
                <Table.Th key={f} scope="col">
                  {t(`contract.flags.${f}`)}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {c.buildings.map((b) => (
              <Table.Tr key={b.buildingId}>
                <Table.Th scope="row">{b.name}</Table.Th>
                {flags.map((f) => (
                  <Table.Td key={f}>
                    <FlagCell on={b[f]} />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
