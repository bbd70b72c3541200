import { Button, Group, Paper, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable, type Column } from '@/components/list-page';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useDismissPendingRobot } from '../api/dismiss-pending-robot';
import { usePendingRobots } from '../api/get-pending-robots';
import { PanelTitle } from '@/components/panel-title';

/** Robots sign in as `robot-{serial}`: the serial to prefill when registering one. */
export const serialOfUsername = (username: string): string =>
  username.startsWith('robot-') ? username.slice(6) : username;

type PendingRow = NonNullable<ReturnType<typeof usePendingRobots>['data']>[number];

/** System administrators: robots that tried to connect with unknown credentials. */
export function PendingRobots() {
  const { t } = useTranslation();
  const format = useFormat();
  const errorText = useErrorText();
  const pending = usePendingRobots(true);
  const dismiss = useDismissPendingRobot();
  if (!pending.data || pending.data.length === 0) return null;
  const columns: Column<PendingRow>[] = [
    { id: 'username', header: t('robotRegistry.pending.username'), cell: ({ row }) => row.original.username },
    { id: 'clientId', header: t('robotRegistry.pending.clientId'), cell: ({ row }) => row.original.clientId },
    { id: 'ip', header: t('robotRegistry.pending.ip'), cell: ({ row }) => row.original.ip },
    {
      id: 'attempts',
      header: t('robotRegistry.pending.attempts'),
      cell: ({ row }) => format.number(row.original.attempts),
    },
    {
      id: 'firstSeenAt',
      header: t('robotRegistry.pending.firstSeenAt'),
      cell: ({ row }) => format.dateTime(row.original.firstSeenAt),
    },
    {
      id: 'lastSeenAt',
      header: t('robotRegistry.pending.lastSeenAt'),
      cell: ({ row }) => format.dateTime(row.original.lastSeenAt),
    },
    {
      id: 'actions',
      header: '',
      cell: ({ row: { original: p } }) => (
        <Group gap="xs" wrap="nowrap" justify="flex-end">
          <Button size="xs" component={Link} to={paths.robot.create.getHref(serialOfUsername(p.username))}>
            {t('robotRegistry.pending.register')}
          </Button>
          <Button
            size="xs"
            variant="light"
            color="gray"
            loading={dismiss.isPending && dismiss.variables === p.id}
            onClick={() =>
              dismiss.mutate(p.id, {
                onSuccess: () => showNotification({ color: 'green', message: t('robotRegistry.pending.dismissed') }),
                onError: (e) => showNotification({ color: 'red', message: errorText(e) }),
              })
            }
          >
            {t('robotRegistry.pending.dismiss')}
          </Button>
        </Group>
      ),
    },
  ];
  return (
    <Paper withBorder p="md" data-testid="pending-robots">
      <Stack gap="xs">
        <PanelTitle
          title={t('robotRegistry.pending.title')}
          description={t('robotRegistry.pending.intro')}
          descriptionSize="sm"
        />
        <DataTable
          data={pending.data}
          columns={columns}
          rowId={(p) => p.id}
          rowProps={(p) => ({ 'data-testid': `pending-robot-${p.username}` })}
          minWidth={800}
          verticalSpacing="xs"
        />
      </Stack>
    </Paper>
  );
}
