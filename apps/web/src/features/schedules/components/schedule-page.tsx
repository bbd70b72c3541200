import { Anchor, Button, Paper, Stack, Title } from '@mantine/core';
import type { Schedule } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { positiveInt } from '@/lib/list-params';
import { showNotification } from '@/lib/notify';
import { allowLeave } from '@/lib/use-leave-guard';
import { useSession } from '@/lib/session';
import { useDeleteSchedule, useSchedule } from '../api';
import { weekdayOf } from '../time';
import { ReferencePanel } from './reference-panel';
import { ScheduleForm, type ScheduleFormValues } from './schedule-form';

function BackLink() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to={paths.schedule.list.getHref()} size="sm">
      ← {t('schedules.back')}
    </Anchor>
  );
}

const localTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/**
 * /schedule/create: a new entry. `?start=2026-11-24T09:00&end=…&building=10` (the calendar's selected
 * slot) fill the times and the building; else the user's building.
 */
export function ScheduleCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const [search] = useSearchParams();
  const start = search.get('start') ?? '';
  const end = search.get('end') ?? '';
  const initial: Partial<ScheduleFormValues> = {
    buildingId: positiveInt(search.get('building')) ?? session?.buildingId ?? undefined,
    ...(localTime.test(start) ? { start, weekdays: [weekdayOf(start)] } : {}),
    ...(localTime.test(end) ? { end } : {}),
  };
  return (
    <Stack>
      <BackLink />
      <Title order={1} size="h2">
        {t('schedules.createTitle')}
      </Title>
      <Paper withBorder p="md">
        <ScheduleForm
          initial={initial}
          onCreated={(s) => void navigate(paths.schedule.detail.getHref(s.id), { replace: true })}
        />
      </Paper>
    </Stack>
  );
}

/** /schedule/:id: edit or delete an entry. */
export function SchedulePage({ id }: { id: number }) {
  const schedule = useSchedule(id);
  if (schedule.isPending) return <PageLoader />;
  if (schedule.isError) return <QueryError error={schedule.error} onRetry={() => void schedule.refetch()} />;
  return (
    <Stack>
      <BackLink />
      <Title order={1} size="h2" data-testid="schedule-heading">
        {schedule.data.title}
      </Title>
      <ScheduleEdit schedule={schedule.data} onReload={async () => (await schedule.refetch()).data} />
      <ReferencePanel scheduleId={id} />
    </Stack>
  );
}

function ScheduleEdit({ schedule, onReload }: { schedule: Schedule; onReload: () => Promise<Schedule | undefined> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const remove = useDeleteSchedule();
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Paper withBorder p="md">
        <ScheduleForm
          schedule={schedule}
          onReload={onReload}
          startActions={
            <Button color="red" variant="light" onClick={() => setConfirming(true)} data-testid="schedule-delete">
              {t('schedules.form.delete')}
            </Button>
          }
        />
      </Paper>
      <ConfirmDialog
        opened={confirming}
        title={t('schedules.form.deleteTitle')}
        confirmLabel={t('schedules.form.delete')}
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(schedule.id, {
            onSettled: () => setConfirming(false),
            onSuccess: () => {
              showNotification({ color: 'green', message: t('schedules.form.deleted') });
              // The entry is gone: typed changes have nothing left to be saved to.
              allowLeave();
              void navigate(paths.schedule.list.getHref());
            },
          })
        }
      >
        {t('schedules.form.deleteBody', { title: schedule.title })}
      </ConfirmDialog>
    </>
  );
}
