import { Anchor, Badge, Button, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { ROBOT_MODELS, robotStatusCodeSchema, RobotStatusCode } from '@portal/contract';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { Pager } from '@/components/pager';
import { QueryError } from '@/components/query-error';
import { SortHeader } from '@/components/sort-header';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { toSearchParams } from '@/lib/list-params';
import { useRobotGroups } from '../api/get-groups';
import { useRobots } from '../api/get-robots';
import {
  parseRobotListParams,
  robotListQuery,
  ROBOTS_PER_PAGE,
  type RobotListParams,
  type RobotSortColumn,
} from '../list-params';

const statusCodes = Object.values(RobotStatusCode);
const statusColor: Record<number, string> = { 0: 'red', 1: 'green', 2: 'yellow', 9: 'grape' };

interface RobotListProps {
  canManage: boolean;
  /** The building filter bound to `?building=` (composed by the route). */
  buildingFilter: ReactNode;
  /** "Awaiting registration" for system administrators (composed by the route). */
  pending?: ReactNode;
}

/** /robot/list: the registry with server paging, sorting, search and filters; the state is the URL. */
export function RobotList({ canManage, buildingFilter, pending }: RobotListProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const [search, setSearch] = useSearchParams();
  const params = parseRobotListParams(search);
  const [q, setQ] = useState(params.q);
  const list = useRobots(params);
  const groups = useRobotGroups(params.building);

  const go = (next: RobotListParams) => setSearch(toSearchParams(robotListQuery(next)));
  const sortable = (column: RobotSortColumn, label: string) => (
    <SortHeader
      key={column}
      column={column}
      label={label}
      sort={params.sort}
      onSort={(sort) => go({ ...params, sort, page: 1 })}
    />
  );
  const filtered =
    params.q !== '' ||
    params.building !== null ||
    params.group !== null ||
    params.model !== null ||
    params.status !== null;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('robotRegistry.listTitle')}
        </Title>
        {canManage && (
          <Button component={Link} to={paths.robot.create.getHref()} data-testid="robot-create">
            {t('robotRegistry.register')}
          </Button>
        )}
      </Group>
      {pending}
      <Group align="flex-end" wrap="wrap">
        <form
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            go({ ...params, q: q.trim(), page: 1 });
          }}
        >
          <Group align="flex-end">
            <TextInput
              label={t('robotRegistry.search')}
              placeholder={t('robotRegistry.searchHint')}
              value={q}
              onChange={(e) => setQ(e.currentTarget.value)}
              w={220}
              data-testid="robot-list-search"
            />
            <Button type="submit" variant="light">
              {t('robotRegistry.search')}
            </Button>
          </Group>
        </form>
        {buildingFilter}
        <NativeSelect
          label={t('robotCommon.fields.groupId')}
          value={params.group === null ? '' : String(params.group)}
          disabled={params.building === null}
          onChange={(e) =>
            go({ ...params, group: e.currentTarget.value === '' ? null : Number(e.currentTarget.value), page: 1 })
          }
          data={[
            {
              value: '',
              label: params.building === null ? t('robotRegistry.chooseBuildingFirst') : t('robotRegistry.allGroups'),
            },
            ...(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name })),
          ]}
          data-testid="robot-list-group"
        />
        <NativeSelect
          label={t('robotCommon.fields.model')}
          value={params.model ?? ''}
          onChange={(e) =>
            go({ ...params, model: ROBOT_MODELS.find((m) => m === e.currentTarget.value) ?? null, page: 1 })
          }
          data={[
            { value: '', label: t('robotRegistry.allModels') },
            ...ROBOT_MODELS.map((m) => ({ value: m, label: t(`robotCommon.models.${m}`) })),
          ]}
          data-testid="robot-list-model"
        />
        <NativeSelect
          label={t('robotCommon.fields.status')}
          value={params.status === null ? '' : String(params.status)}
          onChange={(e) => {
            const v = robotStatusCodeSchema.safeParse(Number(e.currentTarget.value));
            go({ ...params, status: e.currentTarget.value !== '' && v.success ? v.data : null, page: 1 });
          }}
          data={[
            { value: '', label: t('robotRegistry.allStatuses') },
            ...statusCodes.map((c) => ({ value: String(c), label: t(`robotCommon.statusCodes.${c}`) })),
          ]}
          data-testid="robot-list-status"
        />
        {filtered && (
          <Button
            variant="subtle"
            onClick={() => {
              setQ('');
              go({ page: 1, sort: params.sort, q: '', building: null, group: null, model: null, status: null });
            }}
          >
            {t('robotRegistry.clear')}
          </Button>
        )}
      </Group>
      {list.isPending ? (
        <PageLoader />
      ) : list.isError ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <Text c="dimmed" data-testid="robots-list-empty">
          {t('robotRegistry.empty')}
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('robotRegistry.total', { count: list.data.total })}
          </Text>
          <Table.ScrollContainer minWidth={960}>
            <Table striped highlightOnHover withTableBorder verticalSpacing="xs" data-testid="robot-table">
              <Table.Thead>
                <Table.Tr>
                  {sortable('serialNo', t('robotRegistry.columns.serialNo'))}
                  {sortable('name', t('robotRegistry.columns.name'))}
                  {sortable('model', t('robotRegistry.columns.model'))}
                  {sortable('buildingId', t('robotRegistry.columns.building'))}
                  {sortable('floorId', t('robotRegistry.columns.floor'))}
                  {sortable('groupId', t('robotRegistry.columns.group'))}
                  {sortable('status', t('robotRegistry.columns.status'))}
                  {sortable('lastCommunicationAt', t('robotRegistry.columns.lastCommunicationAt'))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.items.map((r) => (
                  <Table.Tr key={r.id} data-testid={`robot-row-${r.serialNo}`}>
                    <Table.Td>
                      <Anchor component={Link} to={paths.robot.detail.getHref(r.id)}>
                        {r.serialNo}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{r.name}</Table.Td>
                    <Table.Td>{t(`robotCommon.models.${r.model}`)}</Table.Td>
                    <Table.Td>{r.buildingName}</Table.Td>
                    <Table.Td>{r.floorName}</Table.Td>
                    <Table.Td>{r.groupName ?? ''}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={statusColor[r.status]}>
                        {t(`robotCommon.statusCodes.${r.status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {r.lastCommunicationAt ? format.dateTime(r.lastCommunicationAt) : t('robotCommon.never')}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pager
            page={params.page}
            total={list.data.total}
            perPage={ROBOTS_PER_PAGE}
            onChange={(page) => go({ ...params, page })}
          />
        </>
      )}
    </Stack>
  );
}
