import { Anchor, Stack, Text, Title } from '@mantine/core';
import {
  isRobotMessageCode,
  robotInputSchema,
  VIDEO_MODES,
  type RobotInput,
  type RobotSettingChange,
} from '@portal/contract';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { ListTable, type Column } from '@/components/list-page';
import { TimeZoneNote } from '@/components/time-zone';
import { paths } from '@/config/paths';
import { useBuildingTimeZone } from '@/lib/building-time';
import { useFormat } from '@/lib/format';
import { listParam, useListParams } from '@/lib/list-params';
import { useRobot } from '../api/get-robot';
import { HISTORY_PER_PAGE, useSettingHistory } from '../api/get-setting-history';
import { modelLabel } from '../model-label';

/** A robot setting the history names (the contract's robot fields, each with a label). */
const isField = (f: string): f is keyof RobotInput => Object.hasOwn(robotInputSchema.shape, f);

/** A stored value as users read it: codes (status, model, video setting, switches) translated. */
export function historyValue(field: string, value: string | null, t: TFunction): string {
  if (value === null || value === '') return t('robotRegistry.history.emptyValue');
  if (field === 'status' && ['0', '1', '2', '9'].includes(value))
    return t(`robotCommon.statusCodes.${value as '0' | '1' | '2' | '9'}`);
  if (field === 'model') return modelLabel(value, t);
  if (field === 'videoMode') {
    const m = VIDEO_MODES.find((x) => x === value);
    if (m) return t(`robotCommon.videoModes.${m}`);
  }
  if (field === 'longTermRecordingAutoStart' && (value === 'true' || value === 'false'))
    return t(value === 'true' ? 'common.yes' : 'common.no');
  if (isRobotMessageCode(value)) return t(`robotCommon.messages.${value}`);
  return value;
}

/** The history's page as it stands in the URL: `?page=2`. */
const historyListSchema = z.object({ page: listParam.page() });

/** /robot/:id/setting-history?page=: who changed which setting, newest first. */
export function SettingHistory({ id }: { id: number }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { params, setParams } = useListParams(historyListSchema);
  const robot = useRobot(id);
  const history = useSettingHistory(id, params.page);
  // Changes happened in the robot's building: its zone, stated under the title.
  const timeZone = useBuildingTimeZone(robot.data?.buildingId);
  const columns: Column<RobotSettingChange>[] = [
    {
      id: 'changedAt',
      header: t('robotRegistry.history.changedAt'),
      cell: ({ row }) => format.dateTime(row.original.changedAt, { timeZone }),
    },
    {
      id: 'operator',
      header: t('robotRegistry.history.operator'),
      cell: ({ row }) => row.original.operatorName ?? t('robotRegistry.history.system'),
    },
    {
      id: 'field',
      header: t('robotRegistry.history.field'),
      cell: ({ row: { original: c } }) => (isField(c.field) ? t(`robotCommon.fields.${c.field}`) : c.field),
    },
    {
      id: 'change',
      header: t('robotRegistry.history.change'),
      cell: ({ row: { original: c } }) => (
        <>
          <Text span size="sm" c="dimmed">
            {historyValue(c.field, c.oldValue, t)}
          </Text>{' '}
          →{' '}
          <Text span size="sm">
            {historyValue(c.field, c.newValue, t)}
          </Text>
        </>
      ),
    },
  ];
  return (
    <Stack>
      <Anchor component={Link} to={paths.robot.detail.getHref(id)} size="sm">
        ← {t('robotRegistry.history.back')}
      </Anchor>
      <Title order={1} size="h2">
        {t('robotRegistry.history.title', { name: robot.data?.name ?? `#${id}` })}
      </Title>
      <TimeZoneNote timeZone={timeZone} />
      <ListTable
        query={history}
        empty={t('robotRegistry.history.empty')}
        emptyTestId="history-empty"
        columns={columns}
        rowId={(c) => c.id}
        paging={{ page: params.page, perPage: HISTORY_PER_PAGE, onPage: (page) => setParams({ page }) }}
        minWidth={720}
        data-testid="history-table"
      />
    </Stack>
  );
}
