import { Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useDismissPendingRobot } from '../api/dismiss-pending-robot';
import { usePendingRobots } from '../api/get-pending-robots';

/** Robots sign in as `robot-{serial}`: the serial to prefill when registering one. */
export const serialOfUsername = (username: string): string =>
  username.startsWith('robot-') ? username.slice(6) : username;

/** System administrators: robots that tried to connect with unknown credentials. */
export function PendingRobots() {
  const { t } = useTranslation();
  const format = useFormat();
  const errorText = useErrorText();
  const pending = usePendingRobots(true);
  const dismiss = useDismissPendingRobot();
  if (!pending.data || pending.data.length === 0) return null;
  return (
    <Paper withBorder p="md" data-testid="pending-robots">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('robotRegistry.pending.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('robotRegistry.pending.intro')}
        </Text>
        <Table.ScrollContainer minWidth={800}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('robotRegistry.pending.username')}</Table.Th>
                <Table.Th>{t('robotRegistry.pending.clientId')}</Table.Th>
                <Table.Th>{t('robotRegistry.pending.ip')}</Table.Th>
                <Table.Th>{t('robotRegistry.pending.attempts')}</Table.Th>
                <Table.Th>{t('robotRegistry.pending.firstSeenAt')}</Table.Th>
                <Table.Th>{t('robotRegistry.pending.lastSeenAt')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {pending.data.map((p) => (
                <Table.Tr key={p.id} data-testid={`pending-robot-${p.username}`}>
                  <Table.Td>{p.username}</Table.Td>
                  <Table.Td>{p.clientId}</Table.Td>
                  <Table.Td>{p.ip}</Table.Td>
                  <Table.Td>{format.number(p.attempts)}</Table.Td>
                  <Table.Td>{format.dateTime(p.firstSeenAt)}</Table.Td>
                  <Table.Td>{format.dateTime(p.lastSeenAt)}</Table.Td>
                  <Table.Td>
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
                            onSuccess: () =>
                              showNotification({ color: 'green', message: t('robotRegistry.pending.dismissed') }),
                            onError: (e) => showNotification({ color: 'red', message: errorText(e) }),
                          })
                        }
                      >
                        {t('robotRegistry.pending.dismiss')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </Paper>
  );
}
