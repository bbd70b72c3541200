import { Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { Pager } from '@/components/pager';
import { QueryError } from '@/components/query-error';
import { POSES_PER_PAGE, type PoseListParams } from '../list-params';
import { PoseListFilters } from './pose-list-filters';

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
  onChange: (next: PoseListParams) => void;
  list: UseQueryResult<{ items: T[]; total: number }>;
  /** The header cells, and the cells of one row. */
  head: ReactNode;
  cells: (item: T) => ReactNode;
}

/** The layout both pose lists share: title, filters, table, server paging (the state is the URL). */
export function PoseListPage<T extends { id: number }>(props: PoseListPageProps<T>) {
  const { t } = useTranslation();
  const { canManage, section, prefix, params, onChange, list } = props;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t(`${section}.listTitle`)}
        </Title>
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
      </Group>
      {!canManage && (
        <Text c="dimmed" size="sm">
          {t('poseCommon.readOnly')}
        </Text>
      )}
      <PoseListFilters params={params} onChange={onChange} testId={`${prefix}-list`} />
      {list.isPending ? (
        <PageLoader />
      ) : list.isError ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <Text c="dimmed" data-testid={`${prefix}-list-empty`}>
          {t(`${section}.empty`)}
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t(`${section}.total`, { count: list.data.total })}
          </Text>
          <Table.ScrollContainer minWidth={820}>
            <Table striped highlightOnHover withTableBorder verticalSpacing="xs" data-testid={`${prefix}-table`}>
              <Table.Thead>
                <Table.Tr>{props.head}</Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.items.map((item) => (
                  <Table.Tr key={item.id} data-testid={`${prefix}-row-${item.id}`}>
                    {props.cells(item)}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pager
            page={params.page}
            total={list.data.total}
            perPage={POSES_PER_PAGE}
            onChange={(page) => onChange({ ...params, page })}
          />
        </>
      )}
    </Stack>
  );
}
