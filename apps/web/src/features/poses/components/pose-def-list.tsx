import { Anchor, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { toSearchParams } from '@/lib/list-params';
import { usePoseDefs } from '../api/get-pose-defs';
import { parsePoseListParams, poseListQuery, type PoseListParams } from '../list-params';
import { ArmDrawing } from './arm-drawing';
import { PoseListPage } from './pose-list-page';

/** /pose-def/list: pose definitions with filters and server paging; the state is the URL. */
export function PoseDefList({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  const [search, setSearch] = useSearchParams();
  const params = parsePoseListParams(search);
  const list = usePoseDefs(params);
  const go = (next: PoseListParams) => setSearch(toSearchParams(poseListQuery(next)));

  return (
    <PoseListPage
      canManage={canManage}
      section="poseDefs"
      prefix="pose"
      createHref={paths.poseDef.create.getHref()}
      other={{ href: paths.poseNetwork.list.getHref(), section: 'poseNetworks' }}
      params={params}
      onChange={go}
      list={list}
      head={
        <>
          <Table.Th w={72} />
          <Table.Th>{t('poseDefs.columns.name')}</Table.Th>
          <Table.Th>{t('poseDefs.columns.armModel')}</Table.Th>
          <Table.Th>{t('poseDefs.columns.armType')}</Table.Th>
          <Table.Th>{t('poseDefs.columns.building')}</Table.Th>
          <Table.Th>{t('poseDefs.columns.periscope')}</Table.Th>
          <Table.Th>{t('poseDefs.columns.updatedAt')}</Table.Th>
        </>
      }
      cells={(p) => (
        <>
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
        </>
      )}
    />
  );
}
