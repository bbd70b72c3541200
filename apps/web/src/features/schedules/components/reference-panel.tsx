import { Alert, Button, Group, Image, Paper, Stack, Text, Title } from '@mantine/core';
import { isApiError, scheduleOps, type ScheduleReference } from '@portal/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { opQuery, useOpMutation } from '@/lib/api-hooks';
import { showNotification } from '@/lib/notify';
import { queryKeys } from '@/lib/query-keys';

const referenceKey = (id: number) => queryKeys.schedules.part(id, 'reference');

/**
 * The start position of a schedule entry (docs/api-schedules.md "Start position"): its reference
 * images, and a button that takes them again with the robot where it stands now (the operator
 * drives it to the flow's start position first). Without them the start position is not checked.
 */
export function ReferencePanel({ scheduleId }: { scheduleId: number }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const refs = useQuery(
    opQuery(scheduleOps.listScheduleReferences, referenceKey(scheduleId), { params: { id: scheduleId } }),
  );
  const take = useOpMutation(scheduleOps.takeScheduleReferences, {
    args: () => ({ params: { id: scheduleId } }),
    invalidates: [],
    onSuccess: (taken: ScheduleReference[]) => {
      qc.setQueryData(referenceKey(scheduleId), taken);
      showNotification({ color: 'green', message: t('schedules.reference.taken') });
    },
    onError: (err) =>
      showNotification({
        color: 'red',
        message: t('schedules.reference.failed', {
          reason: isApiError(err) && i18n.exists(`errors.${err.code}`) ? t(`errors.${err.code}`) : err.message,
        }),
      }),
  });
  const items = refs.data ?? [];
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={3}>{t('schedules.reference.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('schedules.reference.hint')}
        </Text>
        {refs.isSuccess && items.length === 0 && <Alert color="yellow">{t('schedules.reference.none')}</Alert>}
        <Group align="flex-start">
          {items.map((r) => (
            <Stack key={r.camera} gap={4}>
              <Image
                src={r.url}
                w={240}
                h={135}
                fit="contain"
                alt={t('schedules.reference.alt', { camera: r.camera })}
              />
              <Text size="xs" c="dimmed">
                {t('schedules.reference.takenAt', {
                  camera: r.camera,
                  at: new Date(r.takenAt).toLocaleString(i18n.language),
                })}
              </Text>
            </Stack>
          ))}
        </Group>
        <Group>
          <Button onClick={() => take.mutate()} loading={take.isPending}>
            {t('schedules.reference.take')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
