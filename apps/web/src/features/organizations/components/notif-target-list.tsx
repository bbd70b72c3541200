import { Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { NotifTarget } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { useNotifTargets } from '../api/get-notif-targets';
import { useOrganizationBuildings } from '../api/get-organization-buildings';
import { TestNotifButton } from './test-notif-button';

/** Email addresses come in full; the list shows only their start (URLs arrive masked already). */
export const maskAddress = (target: Pick<NotifTarget, 'type' | 'address'>): string => {
  if (target.type !== 0) return target.address;
  const at = target.address.indexOf('@');
  if (at < 0) return target.address;
  return `${target.address.slice(0, Math.min(2, at))}•••${target.address.slice(at)}`;
};

export function NotifTargetList({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation();
  const targets = useNotifTargets(organizationId);
  const buildings = useOrganizationBuildings(organizationId);
  const buildingName = (id: number | null) =>
    id === null ? t('people.notif.allBuildings') : (buildings.data?.find((b) => b.id === id)?.name ?? `#${id}`);

  return (
    <Stack component="section" aria-labelledby="notif-targets-title" mt="lg">
      <Group justify="space-between">
        <Title order={2} size="h3" id="notif-targets-title">
          {t('people.notif.title')}
        </Title>
        <Button
          component={Link}
          to={paths.organization.notifTargetCreate.getHref(organizationId)}
          variant="light"
          data-testid="notif-target-create"
        >
          {t('people.notif.add')}
        </Button>
      </Group>
      {targets.isPending ? (
        <PageLoader />
      ) : targets.isError ? (
        <QueryError error={targets.error} onRetry={() => void targets.refetch()} />
      ) : targets.data.length === 0 ? (
        <Text c="dimmed">{t('people.notif.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={820}>
          <Table striped withTableBorder verticalSpacing="xs" data-testid="notif-target-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('people.notif.type')}</Table.Th>
                <Table.Th>{t('people.notif.level')}</Table.Th>
                <Table.Th>{t('people.notif.building')}</Table.Th>
                <Table.Th>{t('people.notif.room')}</Table.Th>
                <Table.Th>{t('people.notif.address')}</Table.Th>
                <Table.Th>{t('people.notif.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {targets.data.map((n) => (
                <Table.Tr key={n.id}>
                  <Table.Td>
                    <Anchor component={Link} to={paths.organization.notifTarget.getHref(organizationId, n.id)}>
                      {t(`people.notif.types.${n.type}`)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={n.level === 9 ? 'red' : n.level === 5 ? 'orange' : 'blue'}>
                      {t(`people.levels.${n.level}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{buildingName(n.buildingId)}</Table.Td>
                  <Table.Td>{n.room}</Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {maskAddress(n)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button
                        component={Link}
                        to={paths.organization.notifTarget.getHref(organizationId, n.id)}
                        size="xs"
                        variant="default"
                      >
                        {t('people.edit')}
                      </Button>
                      <TestNotifButton organizationId={organizationId} target={n} />
                    </Group>
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
