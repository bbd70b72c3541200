import { Badge, Paper, Stack, Text, Title } from '@mantine/core';
import type { Contract } from '@portal/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type Column } from '@/components/list-page';
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
  const columns: Column<Contract['buildings'][number]>[] = [
    {
      id: 'building',
      header: t('contract.building'),
      meta: { headerProps: { scope: 'col' }, rowHeader: true },
      cell: ({ row }) => row.original.name,
    },
    ...flags.map((f): Column<Contract['buildings'][number]> => ({
      id: f,
      header: t(`contract.flags.${f}`),
      meta: { headerProps: { scope: 'col' } },
      cell: ({ row }) => <FlagCell on={row.original[f]} />,
    })),
  ];
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
      <DataTable
        data={c.buildings}
        columns={columns}
        rowId={(b) => b.buildingId}
        minWidth={640}
        striped
        withTableBorder
      />
    </Stack>
  );
}
