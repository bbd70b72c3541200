import { Anchor, Stack, Title } from '@mantine/core';
import type { CommandUsage as Usage } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListTable, type Column } from '@/components/list-page';
import { paths } from '@/config/paths';
import { useCommand } from '../api/get-command';
import { useCommandUsage } from '../api/get-command-usage';
import { flowHref } from './flow-href';

/** /command/usage/:id: the flows (the caller may see) that use a command, each linking to its page. */
export function CommandUsage({ id }: { id: number }) {
  const { t } = useTranslation();
  const command = useCommand(id);
  const usage = useCommandUsage(id);
  const columns: Column<Usage>[] = [
    {
      id: 'name',
      header: t('commands.usageColumns.name'),
      meta: { rowHeader: true },
      cell: ({ row: { original: f } }) => (
        <Anchor component={Link} to={flowHref(f.id)} data-testid={`usage-flow-${f.id}`}>
          {f.name}
        </Anchor>
      ),
    },
    { id: 'building', header: t('commands.usageColumns.building'), cell: ({ row }) => row.original.buildingName },
  ];
  return (
    <Stack>
      <Anchor component={Link} to={paths.command.detail.getHref(id)} size="sm">
        ← {command.data?.name ?? t('commands.back')}
      </Anchor>
      <Title order={1} size="h2" data-testid="usage-title">
        {t('commands.usageTitle', { name: command.data?.name ?? `#${id}` })}
      </Title>
      <ListTable
        query={usage}
        empty={t('commands.usageEmpty')}
        emptyTestId="usage-empty"
        columns={columns}
        rowId={(f) => f.id}
        data-testid="usage-table"
      />
    </Stack>
  );
}
