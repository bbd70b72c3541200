import { Anchor, Badge, Button, Group, NativeSelect, Stack } from '@mantine/core';
import { ROBOT_MODELS, robotStatusCodeSchema, RobotStatusCode, type Robot } from '@portal/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListSearch, ListTable, type Column } from '@/components/list-page';
import { BuildingDateTime } from '@/components/time-zone';
import { paths } from '@/config/paths';
import { useListParams } from '@/lib/list-params';
import { useRobotGroups } from '../api/get-groups';
import { useRobots } from '../api/get-robots';
import { robotListSchema, ROBOTS_PER_PAGE } from '../list-params';
import { modelChoices, modelLabel } from '../model-label';
import { PageHeader } from '@/components/page-header';

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
  const { params, setParams } = useListParams(robotListSchema);
  const list = useRobots(params);
  const groups = useRobotGroups(params.building);

  const columns: Column<Robot>[] = [
    {
      id: 'serialNo',
      header: t('robotRegistry.columns.serialNo'),
      cell: ({ row: { original: r } }) => (
        <Anchor component={Link} to={paths.robot.detail.getHref(r.id)}>
          {r.serialNo}
        </Anchor>
      ),
    },
    { id: 'name', header: t('robotRegistry.columns.name'), cell: ({ row }) => row.original.name },
    {
      id: 'model',
      header: t('robotRegistry.columns.model'),
      cell: ({ row }) => modelLabel(row.original.model, t),
    },
    { id: 'buildingId', header: t('robotRegistry.columns.building'), cell: ({ row }) => row.original.buildingName },
    { id: 'floorId', header: t('robotRegistry.columns.floor'), cell: ({ row }) => row.original.floorName },
    { id: 'groupId', header: t('robotRegistry.columns.group'), cell: ({ row }) => row.original.groupName ?? '' },
    {
      id: 'status',
      header: t('robotRegistry.columns.status'),
      cell: ({ row: { original: r } }) => (
        <Badge variant="light" color={statusColor[r.status]}>
          {t(`robotCommon.statusCodes.${r.status}`)}
        </Badge>
      ),
    },
    {
      id: 'lastCommunicationAt',
      header: t('robotRegistry.columns.lastCommunicationAt'),
      // In the zone of the robot's building (the list may span buildings in several zones).
      cell: ({ row: { original: r } }) =>
        r.lastCommunicationAt ? (
          <BuildingDateTime value={r.lastCommunicationAt} buildingId={r.buildingId} />
        ) : (
          t('robotCommon.never')
        ),
    },
  ];
  const filtered =
    params.q !== '' ||
    params.building !== null ||
    params.group !== null ||
    params.model !== null ||
    params.status !== null;

  return (
    <Stack>
      <PageHeader
        title={t('robotRegistry.listTitle')}
        create={
          canManage && { to: paths.robot.create.getHref(), label: t('robotRegistry.register'), testId: 'robot-create' }
        }
      />
      {pending}
      <Group align="flex-end" wrap="wrap">
        <ListSearch
          value={params.q}
          onSearch={(q) => setParams({ q })}
          label={t('robotRegistry.search')}
          placeholder={t('robotRegistry.searchHint')}
          testId="robot-list-search"
          width={220}
        />
        {buildingFilter}
        <NativeSelect
          label={t('robotCommon.fields.groupId')}
          value={params.group === null ? '' : String(params.group)}
          disabled={params.building === null}
          onChange={(e) => setParams({ group: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) })}
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
          onChange={(e) => setParams({ model: ROBOT_MODELS.find((m) => m === e.currentTarget.value) ?? null })}
          data={[{ value: '', label: t('robotRegistry.allModels') }, ...modelChoices(t)]}
          data-testid="robot-list-model"
        />
        <NativeSelect
          label={t('robotCommon.fields.status')}
          value={params.status === null ? '' : String(params.status)}
          onChange={(e) => {
            const v = robotStatusCodeSchema.safeParse(Number(e.currentTarget.value));
            setParams({ status: e.currentTarget.value !== '' && v.success ? v.data : null });
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
            onClick={() => setParams({ q: '', building: null, group: null, model: null, status: null })}
          >
            {t('robotRegistry.clear')}
          </Button>
        )}
      </Group>
      <ListTable
        query={list}
        empty={t('robotRegistry.empty')}
        emptyTestId="robots-list-empty"
        count={(count) => t('robotRegistry.total', { count })}
        columns={columns.map((c) => ({ ...c, enableSorting: true }))}
        rowId={(r) => r.id}
        rowProps={(r) => ({ 'data-testid': `robot-row-${r.serialNo}` })}
        sort={params.sort}
        onSort={(sort) => setParams({ sort })}
        paging={{ page: params.page, perPage: ROBOTS_PER_PAGE, onPage: (page) => setParams({ page }) }}
        minWidth={960}
        highlightOnHover
        data-testid="robot-table"
      />
    </Stack>
  );
}
