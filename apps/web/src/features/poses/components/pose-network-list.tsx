import { Anchor, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { Pager } from '@/components/pager';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { toSearchParams } from '@/lib/list-params';
import { usePoseNetworks } from '../api/get-pose-networks';
import { parsePoseListParams, poseListQuery, POSES_PER_PAGE, type PoseListParams } from '../list-params';
import { PoseListFilters } from './pose-list-filters';

/** /pose-network/list: pose networks with filters and server paging; the state is the URL. */
export function PoseNetworkList({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  const [search, setSearch] = useSearchParams();
  const params = parsePoseListParams(search);
  const list = usePoseNetworks(params);
  const go = (next: PoseListParams) => setSearch(toSearchParams(poseListQuery(next)));

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('poseNetworks.listTitle')}
        </Title>
        <Group>
          <Button component={Link} to={paths.poseDef.list.getHref()} variant="subtle">
            {t('poseDefs.listTitle')}
          </Button>
          {canManage && (
            <Button component={Link} to={paths.poseNetwork.create.getHref()} data-testid="network-create">
              {t('poseNetworks.create')}
            </Button>
          )}
        </Group>
      </Group>
      {!canManage && (
        <Text c="dimmed" size="sm">
          {t('poseCommon.readOnly')}
        </Text>
      )}
      <PoseListFilters params={params} onChange={go} testId="network-list" />
      {list.isPending ? (
        <PageLoader />
      ) : list.isError ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <Text c="dimmed" data-testid="network-list-empty">
          {t('poseNetworks.empty')}
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('poseNetworks.total', { count: list.data.total })}
          </Text>
          <Table.ScrollContainer minWidth={820}>
            <Table striped highlightOnHover withTableBorder verticalSpacing="xs" data-testid="network-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('poseNetworks.columns.name')}</Table.Th>
                  <Table.Th>{t('poseNetworks.columns.armModel')}</Table.Th>
                  <Table.Th>{t('poseNetworks.columns.armType')}</Table.Th>
                  <Table.Th>{t('poseNetworks.columns.building')}</Table.Th>
                  <Table.Th>{t('poseNetworks.columns.nodes')}</Table.Th>
                  <Table.Th>{t('poseNetworks.columns.edges')}</Table.Th>
                  <Table.Th>{t('poseNetworks.columns.updatedAt')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.items.map((n) => (
                  <Table.Tr key={n.id} data-testid={`network-row-${n.id}`}>
                    <Table.Td>
                      <Anchor component={Link} to={paths.poseNetwork.detail.getHref(n.id)}>
                        {n.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{t(`poseCommon.armModels.${n.armModel}`)}</Table.Td>
                    <Table.Td>{t(`poseCommon.armTypes.${n.armType}`)}</Table.Td>
                    <Table.Td>{n.buildingName ?? t('poseCommon.wholeOrganization')}</Table.Td>
                    <Table.Td>{n.nodes.length}</Table.Td>
                    <Table.Td>{n.edges.length}</Table.Td>
                    <Table.Td>{format.dateTime(n.updatedAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pager
            page={params.page}
            total={list.data.total}
            perPage={POSES_PER_PAGE}
            onChange={(page) => go({ ...params, page })}
          />
        </>
      )}
    </Stack>
  );
}
