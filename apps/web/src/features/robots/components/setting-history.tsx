import { Anchor, Stack, Table, Text, Title } from '@mantine/core';
import { isRobotMessageCode, ROBOT_MODELS, VIDEO_MODES, type RobotSettingChange } from '@portal/contract';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { UrlPagination } from '@/components/url-pagination';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { useRobot } from '../api/get-robot';
import { HISTORY_PER_PAGE, useSettingHistory } from '../api/get-setting-history';

const fieldKeys = [
  'serialNo',
  'name',
  'model',
  'version',
  'hardwareRevision',
  'buildingId',
  'floorId',
  'groupId',
  'status',
  'longTermRecordingAutoStart',
  'videoMode',
  'notes',
] as const;
type FieldKey = (typeof fieldKeys)[number];
const isField = (f: string): f is FieldKey => (fieldKeys as readonly string[]).includes(f);

/** A stored value as users read it: codes (status, model, video setting, switches) translated. */
export function historyValue(field: string, value: string | null, t: TFunction): string {
  if (value === null || value === '') return t('robotRegistry.history.emptyValue');
  if (field === 'status' && ['0', '1', '2', '9'].includes(value))
    return t(`robotCommon.statusCodes.${value as '0' | '1' | '2' | '9'}`);
  if (field === 'model') {
    const m = ROBOT_MODELS.find((x) => x === value);
    if (m) return t(`robotCommon.models.${m}`);
  }
  if (field === 'videoMode') {
    const m = VIDEO_MODES.find((x) => x === value);
    if (m) return t(`robotCommon.videoModes.${m}`);
  }
  if (field === 'longTermRecordingAutoStart' && (value === 'true' || value === 'false'))
    return t(value === 'true' ? 'common.yes' : 'common.no');
  if (isRobotMessageCode(value)) return t(`robotCommon.messages.${value}`);
  return value;
}

function Row({ change }: { change: RobotSettingChange }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <Table.Tr>
      <Table.Td>{format.dateTime(change.changedAt)}</Table.Td>
      <Table.Td>{change.operatorName ?? t('robotRegistry.history.system')}</Table.Td>
      <Table.Td>{isField(change.field) ? t(`robotCommon.fields.${change.field}`) : change.field}</Table.Td>
      <Table.Td>
        <Text span size="sm" c="dimmed">
          {historyValue(change.field, change.oldValue, t)}
        </Text>{' '}
        →{' '}
        <Text span size="sm">
          {historyValue(change.field, change.newValue, t)}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

/** /robot/:id/setting-history?page=: who changed which setting, newest first. */
export function SettingHistory({ id, page }: { id: number; page: number }) {
  const { t } = useTranslation();
  const robot = useRobot(id);
  const history = useSettingHistory(id, page);
  return (
    <Stack>
      <Anchor component={Link} to={paths.robot.detail.getHref(id)} size="sm">
        ← {t('robotRegistry.history.back')}
      </Anchor>
      <Title order={1} size="h2">
        {t('robotRegistry.history.title', { name: robot.data?.name ?? `#${id}` })}
      </Title>
      {history.isPending ? (
        <PageLoader />
      ) : history.isError ? (
        <QueryError error={history.error} onRetry={() => void history.refetch()} />
      ) : history.data.items.length === 0 ? (
        <Text c="dimmed" data-testid="history-empty">
          {t('robotRegistry.history.empty')}
        </Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={720}>
            <Table striped withTableBorder verticalSpacing="xs" data-testid="history-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('robotRegistry.history.changedAt')}</Table.Th>
                  <Table.Th>{t('robotRegistry.history.operator')}</Table.Th>
                  <Table.Th>{t('robotRegistry.history.field')}</Table.Th>
                  <Table.Th>{t('robotRegistry.history.change')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {history.data.items.map((c) => (
                  <Row key={c.id} change={c} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <UrlPagination
            page={page}
            total={history.data.total}
            perPage={HISTORY_PER_PAGE}
            hrefFor={(p) => paths.robot.settingHistory.getHref(id, p)}
          />
        </>
      )}
    </Stack>
  );
}
