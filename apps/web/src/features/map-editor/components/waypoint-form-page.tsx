import { Alert, Button, Group, NumberInput, Select, Stack, TextInput, Title } from '@mantine/core';
import { WAYPOINT_TYPES, waypointInputSchema, type Waypoint, type WaypointInput } from '@portal/contract';
import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { applyServerErrors } from '@/lib/server-errors';
import { useDeleteWaypoint } from '../api/delete-waypoint';
import { useWaypoint } from '../api/get-waypoint';
import { useSaveWaypoint } from '../api/save-waypoint';
import { useMapMessageText } from './message-text';

const fields = ['name', 'x', 'y', 'theta', 'type'] as const;

interface FormProps {
  floorId: number;
  waypoint: Waypoint | null;
  canEdit: boolean;
}

function WaypointForm({ floorId, waypoint, canEdit }: FormProps) {
  const { t } = useTranslation();
  const message = useMapMessageText();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const save = useSaveWaypoint(floorId, waypoint?.id ?? null, waypoint?.updatedAt);
  const remove = useDeleteWaypoint(floorId);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirm, setConfirm] = useState(false);
  const form = useForm<WaypointInput>({
    resolver: zodResolver(waypointInputSchema),
    defaultValues: waypoint ?? { name: '', x: 0, y: 0, theta: 0, type: 1 },
  });
  const err = (f: (typeof fields)[number]) => message(form.formState.errors[f]?.message);

  const submit = form.handleSubmit((body) => {
    setProblem(null);
    save.mutate(body, {
      onSuccess: (w) => {
        showNotification({ color: 'teal', message: t('waypointScreens.saved') });
        if (!waypoint) void navigate(paths.waypoint.detail.getHref(floorId, w.id), { replace: true });
      },
      onError: (e) => {
        if (!applyServerErrors(e, form.setError, fields, t('validation.duplicate'))) setProblem(errorText(e));
      },
    });
  });

  const onDelete = () =>
    remove.mutate(waypoint!.id, {
      onSuccess: () => {
        showNotification({ color: 'teal', message: t('waypointScreens.deleted') });
        void navigate(paths.waypoint.list.getHref(floorId));
      },
      onError: (e) => {
        setConfirm(false);
        if (isApiError(e) && e.code === 'IN_USE') {
          const names = e.details.filter((d) => d.path === 'routes').map((d) => d.message);
          const edges = e.details.find((d) => d.path === 'edges');
          if (edges) names.push(t('waypointScreens.edgesInUse', { count: Number(edges.code ?? 1) }));
          setProblem(t('waypointScreens.inUse', { routes: names.join(', ') }));
        } else setProblem(errorText(e));
      },
    });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack maw={480}>
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <TextInput
          label={t('waypointScreens.columns.name')}
          required
          disabled={!canEdit}
          error={err('name')}
          {...form.register('name')}
        />
        <Group grow>
          <Controller
            control={form.control}
            name="x"
            render={({ field }) => (
              <NumberInput
                label={t('waypointScreens.columns.x')}
                decimalScale={3}
                disabled={!canEdit}
                error={err('x')}
                value={field.value}
                onChange={(v) => field.onChange(typeof v === 'number' ? v : Number.NaN)}
              />
            )}
          />
          <Controller
            control={form.control}
            name="y"
            render={({ field }) => (
              <NumberInput
                label={t('waypointScreens.columns.y')}
                decimalScale={3}
                disabled={!canEdit}
                error={err('y')}
                value={field.value}
                onChange={(v) => field.onChange(typeof v === 'number' ? v : Number.NaN)}
              />
            )}
          />
        </Group>
        <Controller
          control={form.control}
          name="theta"
          render={({ field }) => (
            <NumberInput
              label={t('waypointScreens.columns.direction')}
              decimalScale={1}
              disabled={!canEdit}
              error={err('theta')}
              value={Math.round(((field.value * 180) / Math.PI) * 10) / 10}
              onChange={(v) => field.onChange(typeof v === 'number' ? (v * Math.PI) / 180 : Number.NaN)}
            />
          )}
        />
        <Controller
          control={form.control}
          name="type"
          render={({ field }) => (
            <Select
              label={t('waypointScreens.columns.type')}
              disabled={!canEdit}
              allowDeselect={false}
              data={WAYPOINT_TYPES.map((c) => ({ value: String(c), label: t(`mapEditor.waypointTypes.${c}`) }))}
              value={String(field.value)}
              onChange={(v) => field.onChange(Number(v))}
              error={err('type')}
            />
          )}
        />
        <Group>
          {canEdit && (
            <Button type="submit" loading={save.isPending}>
              {t('waypointScreens.save')}
            </Button>
          )}
          {canEdit && waypoint && (
            <Button color="red" variant="light" onClick={() => setConfirm(true)}>
              {t('waypointScreens.delete')}
            </Button>
          )}
          <Button variant="default" component={Link} to={paths.waypoint.list.getHref(floorId)}>
            {t('waypointScreens.back')}
          </Button>
        </Group>
      </Stack>
      {waypoint && (
        <ConfirmDialog
          opened={confirm}
          title={t('waypointScreens.confirmDelete', { name: waypoint.name })}
          confirmLabel={t('waypointScreens.delete')}
          loading={remove.isPending}
          onClose={() => setConfirm(false)}
          onConfirm={onDelete}
        >
          {t('waypointScreens.confirmDelete', { name: waypoint.name })}
        </ConfirmDialog>
      )}
    </form>
  );
}

/** /waypoint/{mapId}/create and /waypoint/{mapId}/{id}: one waypoint, edited through the waypoint API. */
export function WaypointFormPage({ floorId, id, canEdit }: { floorId: number; id: number | null; canEdit: boolean }) {
  const { t } = useTranslation();
  const query = useWaypoint(floorId, id ?? 0);
  if (id !== null && query.isError) return <QueryError error={query.error} onRetry={() => void query.refetch()} />;
  if (id !== null && query.isPending) return <PageLoader />;
  const waypoint = id !== null ? (query.data ?? null) : null;
  return (
    <Stack>
      <Title order={1} size="h2">
        {waypoint ? t('waypointScreens.editTitle', { name: waypoint.name }) : t('waypointScreens.createTitle')}
      </Title>
      <WaypointForm key={waypoint?.id ?? 'new'} floorId={floorId} waypoint={waypoint} canEdit={canEdit} />
    </Stack>
  );
}
