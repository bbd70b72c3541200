import { Alert, Badge, Button, Group, Stack, Table, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { useFormat } from '@/lib/format';
import { useErrorText } from '@/lib/i18n';
import { useDevices } from '../api/get-devices';
import { useRevokeDevice } from '../api/revoke-device';
import { useRevokeOtherDevices } from '../api/revoke-other-devices';
import { showNotification } from '@/lib/notify';

export function DevicesList() {
  const { t } = useTranslation();
  const format = useFormat();
  const errorText = useErrorText();
  const devices = useDevices();
  const revoke = useRevokeDevice();
  const revokeOthers = useRevokeOtherDevices();
  const done = () => showNotification({ color: 'green', message: t('my.devices.revoked') });
  const mutationError = revoke.error ?? revokeOthers.error;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('my.devices.title')}
        </Title>
        <Button
          variant="light"
          color="red"
          onClick={() => revokeOthers.mutate(undefined, { onSuccess: done })}
          disabled={!devices.data?.some((d) => !d.current)}
          data-testid="devices-revoke-others"
        >
          {t('my.devices.revokeOthers')}
        </Button>
      </Group>
      {mutationError && (
        <Alert color="red" role="alert">
          {errorText(mutationError)}
        </Alert>
      )}
      {devices.isPending ? (
        <PageLoader />
      ) : devices.isError ? (
        <QueryError error={devices.error} onRetry={() => void devices.refetch()} />
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('my.devices.device')}</Table.Th>
                <Table.Th>{t('my.devices.ip')}</Table.Th>
                <Table.Th>{t('my.devices.createdAt')}</Table.Th>
                <Table.Th>{t('my.devices.lastUsedAt')}</Table.Th>
                <Table.Th aria-label={t('my.devices.revoke')} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {devices.data.map((d) => (
                <Table.Tr key={d.id} data-testid={`device-row-${d.id}`}>
                  <Table.Td>
                    {d.device}{' '}
                    {d.current && (
                      <Badge size="sm" data-testid="device-current">
                        {t('my.devices.current')}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{d.ip}</Table.Td>
                  <Table.Td>{format.dateTime(d.createdAt)}</Table.Td>
                  <Table.Td>{format.dateTime(d.lastUsedAt)}</Table.Td>
                  <Table.Td>
                    {!d.current && (
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        onClick={() => revoke.mutate(d.id, { onSuccess: done })}
                      >
                        {t('my.devices.revoke')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
