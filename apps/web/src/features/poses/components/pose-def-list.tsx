import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Column } from '@/components/list-page';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { useListParams } from '@/lib/list-params';
import { usePoseDefs } from '../api/get-pose-defs';
import { poseListSchema } from '../list-params';
import { ArmDrawing } from './arm-drawing';
import { PoseListPage } from './pose-list-page';

type PoseDefRow = NonNullable<ReturnType<typeof usePoseDefs>['data']>['items'][number];

/** /pose-def/list: pose definitions with filters and server paging; the state is the URL. */
export function PoseDefList({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { params, setParams } = useListParams(poseListSchema);
  const list = usePoseDefs(params);
  const columns: Column<PoseDefRow>[] = [
    {
      id: 'drawing',
      header: '',
      meta: { headerProps: { w: 72 } },
      cell: ({ row: { original: p } }) => (
        <ArmDrawing armModel={p.armModel} armType={p.armType} arms={p.arms} periscopeMm={p.periscopeMm} height={48} />
      ),
    },
    {
      id: 'name',
      header: t('poseDefs.columns.name'),
      cell: ({ row: { original: p } }) => (
        <Anchor component={Link} to={paths.poseDef.detail.getHref(p.id)}>
          {p.name}
        </Anchor>
      ),
    },
    {
      id: 'armModel',
      header: t('poseDefs.columns.armModel'),
      cell: ({ row }) => t(`poseCommon.armModels.${row.original.armModel}`),
    },
    {
      id: 'armType',
      header: t('poseDefs.columns.armType'),
      cell: ({ row }) => t(`poseCommon.armTypes.${row.original.armType}`),
    },
    {
      id: 'building',
      header: t('poseDefs.columns.building'),
      cell: ({ row }) => row.original.buildingName ?? t('poseCommon.wholeOrganization'),
    },
    {
      id: 'periscope',
      header: t('poseDefs.columns.periscope'),
      cell: ({ row: { original: p } }) => (p.periscopeMm === null ? '—' : `${p.periscopeMm} mm`),
    },
    {
      id: 'updatedAt',
      header: t('poseDefs.columns.updatedAt'),
      cell: ({ row }) => format.dateTime(row.original.updatedAt),
    },
  ];

  return (
    <PoseListPage
      canManage={canManage}
      section="poseDefs"
      prefix="pose"
      createHref={paths.poseDef.create.getHref()}
      other={{ href: paths.poseNetwork.list.getHref(), section: 'poseNetworks' }}
      params={params}
      onChange={setParams}
      list={list}
      columns={columns}
    />
  );
}
