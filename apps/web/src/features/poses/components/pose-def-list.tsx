import { Anchor, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { Pager } from '@/components/pager';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { toSearchParams } from '@/lib/list-params';
import { usePoseDefs } from '../api/get-pose-defs';
import { parsePoseListParams, poseListQuery, POSES_PER_PAGE, type PoseListParams } from '../list-params';
import { ArmDrawing } from './arm-drawing';
import { PoseListFilters } from './pose-list-filters';

/** /pose-def/list: pose definitions with filters and server paging; the state is the URL. */
export function PoseDefList({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  const [search, setSearch] = useSearchParams();
  const params = parsePoseListParams(search);
  const list = usePoseDefs(params);
  const go = (next: PoseListParams) => setSearch(toSearchParams(poseListQuery(next)));

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('poseDefs.listTitle')}
        </Title>
        <Group>
          <Button component={Link} to={paths.poseNetwork.list.getHref()} variant="subtle">
            {t('poseNetworks.listTitle')}
          </Button>
          {canManage && (
            <Button component={Link} to={paths.poseDef.create.getHref()} data-testid="pose-create">
              {t('poseDefs.create')}
            </Button>
          )}
        </Group>
      </Group>
      {!canManage && (
        <Text c="dimmed" size="sm">
          {t('poseCommon.readOnly')}
        </Text>
      )}
      <PoseListFilters params={params} onChange={go} testId="pose-list" />
      {list.isPending ? (
        <PageLoader />
      ) : list.isError ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <Text c="dimmed" data-testid="pose-list-empty">
          {t('poseDefs.empty')}
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('poseDefs.total', { count: list.data.total })}
          </Text>
          <Table.ScrollContainer minWidth={820}>
            <Table striped highlightOnHover withTableBorder verticalSpacing="xs" data-testid="pose-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={72} />
                  <Table.Th>{t('poseDefs.columns.name')}</Table.Th>
                  <Table.Th>{t('poseDefs.columns.armModel')}</Table.Th>
                  <Table.Th>{t('poseDefs.columns.armType')}</Table.Th>
                  <Table.Th>{t('poseDefs.columns.building')}</Table.Th>
                  <Table.Th>{t('poseDefs.columns.periscope')}</Table.Th>
                  <Table.Th>{t('poseDefs.columns.updatedAt')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.items.map((p) => (
                  <Table.Tr key={p.id} data-testid={`pose-row-${p.id}`}>
                    <Table.Td>
                      <ArmDrawing
                        armModel={p.armModel}
                        armType={p.armType}
                        arms={p.arms}
                        periscopeMm={p.periscopeMm}
                        height={48}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={paths.poseDef.detail.getHref(p.id)}>
                        {p.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{t(`poseCommon.armModels.${p.armModel}`)}</Table.Td>
                    <Table.Td>{t(`poseCommon.armTypes.${p.armType}`)}</Table.Td>
                    <Table.Td>{p.buildingName ?? t('poseCommon.wholeOrganization')}</Table.Td>
                    <Table.Td>{p.periscopeMm === null ? '—' : `${p.periscopeMm} mm`}</Table.Td>
                    <Table.Td>{format.dateTime(p.updatedAt)}</Table.Td>
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
