import { Alert, Badge, Button, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ListTable, type Column } from '@/components/list-page';
import { useFormat } from '@/lib/format';
import { useErrorText } from '@/lib/i18n';
import { useDevices } from '../api/get-devices';
import { useRevokeDevice } from '../api/revoke-device';
import { useRevokeOtherDevices } from '../api/revoke-other-devices';
import { showNotification } from '@/lib/notify';
import { PageHeader } from '@/components/page-header';

type DeviceRow = NonNullable<ReturnType<typeof useDevices>['data']>[number];

export function DevicesList() {
  const { t } = useTranslation();
  const format = useFormat();
  const errorText = useErrorText();
  const devices = useDevices();
  const revoke = useRevokeDevice();
  const revokeOthers = useRevokeOtherDevices();
  const done = () => showNotification({ color: 'green', message: t('my.devices.revoked') });
  const mutationError = revoke.error ?? revokeOthers.error;

  const columns: Column<DeviceRow>[] = [
    {
      id: 'device',
      header: t('my.devices.device'),
      cell: ({ row: { original: d } }) => (
        <>
          {d.device}{' '}
          {d.current && (
            <Badge size="sm" data-testid="device-current">
              {t('my.devices.current')}
            </Badge>
          )}
        </>
      ),
    },
    { id: 'ip', header: t('my.devices.ip'), cell: ({ row }) => row.original.ip },
    { id: 'createdAt', header: t('my.devices.createdAt'), cell: ({ row }) => format.dateTime(row.original.createdAt) },
    {
      id: 'lastUsedAt',
      header: t('my.devices.lastUsedAt'),
      cell: ({ row }) => format.dateTime(row.original.lastUsedAt),
    },
    {
      id: 'revoke',
      header: '',
      meta: { headerProps: { 'aria-label': t('my.devices.revoke') } },
      cell: ({ row: { original: d } }) =>
        !d.current && (
          <Button size="xs" variant="subtle" color="red" onClick={() => revoke.mutate(d.id, { onSuccess: done })}>
            {t('my.devices.revoke')}
          </Button>
        ),
    },
  ];

  return (
    <Stack>
      <PageHeader title={t('my.devices.title')}>
        <Button
          variant="light"
          color="red"
          onClick={() => revokeOthers.mutate(undefined, { onSuccess: done })}
          disabled={!devices.data?.some((d) => !d.current)}
          data-testid="devices-revoke-others"
        >
          {t('my.devices.revokeOthers')}
        </Button>
      </PageHeader>
      {mutationError && (
        <Alert color="red" role="alert">
          {errorText(mutationError)}
        </Alert>
      )}
      <ListTable
        query={devices}
        empty={t('common.empty')}
        columns={columns}
        rowId={(d) => d.id}
        rowProps={(d) => ({ 'data-testid': `device-row-${d.id}` })}
        minWidth={640}
        verticalSpacing={7}
      />
    </Stack>
  );
}
