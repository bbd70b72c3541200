import { Button, Group, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListTable, type Column } from '@/components/list-page';
import { POSES_PER_PAGE, type PoseListParams } from '../list-params';
import { PoseListFilters } from './pose-list-filters';
import { PageHeader } from '@/components/page-header';

interface PoseListPageProps<T extends { id: number }> {
  canManage: boolean;
  /** Whose texts: `poseDefs` or `poseNetworks` (listTitle, create, empty, total). */
  section: 'poseDefs' | 'poseNetworks';
  /** Test ids: `{prefix}-create`, `{prefix}-list`, `{prefix}-list-empty`, `{prefix}-table`, `{prefix}-row-{id}`. */
  prefix: 'pose' | 'network';
  createHref: string;
  /** The other pose list (definitions ↔ networks). */
  other: { href: string; section: 'poseDefs' | 'poseNetworks' };
  params: PoseListParams;
  onChange: (change: Partial<PoseListParams>) => void;
  list: UseQueryResult<{ items: T[]; total: number }>;
  columns: Column<T>[];
}

/** The layout both pose lists share: title, filters, table, server paging (the state is the URL). */
export function PoseListPage<T extends { id: number }>(props: PoseListPageProps<T>) {
  const { t } = useTranslation();
  const { canManage, section, prefix, params, onChange, list } = props;
  return (
    <Stack>
      <PageHeader title={t(`${section}.listTitle`)}>
        <Group>
          <Button component={Link} to={props.other.href} variant="subtle">
            {t(`${props.other.section}.listTitle`)}
          </Button>
          {canManage && (
            <Button component={Link} to={props.createHref} data-testid={`${prefix}-create`}>
              {t(`${section}.create`)}
            </Button>
          )}
        </Group>
      </PageHeader>
      {!canManage && (
        <Text c="dimmed" size="sm">
          {t('poseCommon.readOnly')}
        </Text>
      )}
      <PoseListFilters params={params} onChange={onChange} testId={`${prefix}-list`} />
      <ListTable
        query={list}
        empty={t(`${section}.empty`)}
        emptyTestId={`${prefix}-list-empty`}
        count={(count) => t(`${section}.total`, { count })}
        columns={props.columns}
        rowId={(item) => item.id}
        rowProps={(item) => ({ 'data-testid': `${prefix}-row-${item.id}` })}
        paging={{ page: params.page, perPage: POSES_PER_PAGE, onPage: (page) => onChange({ page }) }}
        minWidth={820}
        highlightOnHover
        data-testid={`${prefix}-table`}
      />
    </Stack>
  );
}
