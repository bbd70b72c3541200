import { Anchor, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { toSearchParams } from '@/lib/list-params';
import { usePoseNetworks } from '../api/get-pose-networks';
import { parsePoseListParams, poseListQuery, type PoseListParams } from '../list-params';
import { PoseListPage } from './pose-list-page';

/** /pose-network/list: pose networks with filters and server paging; the state is the URL. */
export function PoseNetworkList({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  const [search, setSearch] = useSearchParams();
  const params = parsePoseListParams(search);
  const list = usePoseNetworks(params);
  const go = (next: PoseListParams) => setSearch(toSearchParams(poseListQuery(next)));

  return (
    <PoseListPage
      canManage={canManage}
      section="poseNetworks"
      prefix="network"
      createHref={paths.poseNetwork.create.getHref()}
      other={{ href: paths.poseDef.list.getHref(), section: 'poseDefs' }}
      params={params}
      onChange={go}
      list={list}
      head={
        <>
          <Table.Th>{t('poseNetworks.columns.name')}</Table.Th>
          <Table.Th>{t('poseNetworks.columns.armModel')}</Table.Th>
          <Table.Th>{t('poseNetworks.columns.armType')}</Table.Th>
          <Table.Th>{t('poseNetworks.columns.building')}</Table.Th>
          <Table.Th>{t('poseNetworks.columns.nodes')}</Table.Th>
          <Table.Th>{t('poseNetworks.columns.edges')}</Table.Th>
          <Table.Th>{t('poseNetworks.columns.updatedAt')}</Table.Th>
        </>
      }
      cells={(n) => (
        <>
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
        </>
      )}
    />
  );
}
