import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Column } from '@/components/list-page';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { useListParams } from '@/lib/list-params';
import { usePoseNetworks } from '../api/get-pose-networks';
import { poseListSchema } from '../list-params';
import { PoseListPage } from './pose-list-page';

type PoseNetworkRow = NonNullable<ReturnType<typeof usePoseNetworks>['data']>['items'][number];

/** /pose-network/list: pose networks with filters and server paging; the state is the URL. */
export function PoseNetworkList({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { params, setParams } = useListParams(poseListSchema);
  const list = usePoseNetworks(params);
  const columns: Column<PoseNetworkRow>[] = [
    {
      id: 'name',
      header: t('poseNetworks.columns.name'),
      cell: ({ row: { original: n } }) => (
        <Anchor component={Link} to={paths.poseNetwork.detail.getHref(n.id)}>
          {n.name}
        </Anchor>
      ),
    },
    {
      id: 'armModel',
      header: t('poseNetworks.columns.armModel'),
      cell: ({ row }) => t(`poseCommon.armModels.${row.original.armModel}`),
    },
    {
      id: 'armType',
      header: t('poseNetworks.columns.armType'),
      cell: ({ row }) => t(`poseCommon.armTypes.${row.original.armType}`),
    },
    {
      id: 'building',
      header: t('poseNetworks.columns.building'),
      cell: ({ row }) => row.original.buildingName ?? t('poseCommon.wholeOrganization'),
    },
    { id: 'nodes', header: t('poseNetworks.columns.nodes'), cell: ({ row }) => row.original.nodes.length },
    { id: 'edges', header: t('poseNetworks.columns.edges'), cell: ({ row }) => row.original.edges.length },
    {
      id: 'updatedAt',
      header: t('poseNetworks.columns.updatedAt'),
      cell: ({ row }) => format.dateTime(row.original.updatedAt),
    },
  ];

  return (
    <PoseListPage
      canManage={canManage}
      section="poseNetworks"
      prefix="network"
      createHref={paths.poseNetwork.create.getHref()}
      other={{ href: paths.poseDef.list.getHref(), section: 'poseDefs' }}
      params={params}
      onChange={setParams}
      list={list}
      columns={columns}
    />
  );
}
