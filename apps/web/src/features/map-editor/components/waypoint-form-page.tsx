import { Alert, Button, Group, NumberInput, Select, TextInput, Stack, Title } from '@mantine/core';
import { WAYPOINT_TYPES, waypointInputSchema, type WaypointEntry, type WaypointInput } from '@portal/contract';
import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormShell, LockedFields, useFormKit } from '@/components/form-page';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useDeleteWaypoint } from '../api/delete-waypoint';
import { useWaypoint } from '../api/get-waypoint';
import { useSaveWaypoint } from '../api/save-waypoint';
import { useMapMessageText } from './message-text';

const fields = ['name', 'x', 'y', 'theta', 'type'] as const;

const valuesOf = (w: WaypointEntry): WaypointInput => ({ name: w.name, x: w.x, y: w.y, theta: w.theta, type: w.type });

interface FormProps {
  floorId: number;
  waypoint: WaypointEntry | null;
  canEdit: boolean;
  /** Edit: fetches the stored waypoint again (the conflict dialog's answers). */
  onReload?: () => Promise<WaypointEntry | undefined>;
}

function WaypointForm({ floorId, waypoint, canEdit, onReload }: FormProps) {
  const { t } = useTranslation();
  const message = useMapMessageText();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const remove = useDeleteWaypoint(floorId);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirm, setConfirm] = useState(false);
  const form = useForm<WaypointInput>({
    resolver: zodResolver(waypointInputSchema),
    defaultValues: waypoint ? valuesOf(waypoint) : { name: '', x: 0, y: 0, theta: 0, type: 1 },
  });
  const kit = useFormKit(form, {
    fields,
    duplicateText: t('validation.duplicate'),
    record: waypoint ?? undefined,
    reload: onReload,
    toValues: valuesOf,
    translate: message,
  });
  // An edit sends the version its values started from (never a newer one the user has not seen).
  const save = useSaveWaypoint(floorId, waypoint?.id ?? null, kit.base?.updatedAt);
  const { err } = kit;

  const submit = form.handleSubmit((body) => {
    setProblem(null);
    save.mutate(
      body,
      kit.saved<WaypointEntry>({
        successText: t('waypointScreens.saved'),
        onSuccess: (w) => {
          if (!waypoint) void navigate(paths.waypoint.detail.getHref(floorId, w.id), { replace: true });
        },
      }),
    );
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
    <FormShell
      kit={kit}
      onSubmit={submit}
      mutation={save}
      label={waypoint ? t('waypointScreens.editTitle', { name: waypoint.name }) : t('waypointScreens.createTitle')}
      submitLabel={t('waypointScreens.save')}
      cancelTo={paths.waypoint.list.getHref(floorId)}
      cancelLabel={t('waypointScreens.back')}
      readOnly={!canEdit}
      startActions={
        waypoint ? (
          <Button color="red" variant="light" onClick={() => setConfirm(true)}>
            {t('waypointScreens.delete')}
          </Button>
        ) : undefined
      }
      maw={480}
    >
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      <LockedFields locked={!canEdit}>
        <Stack>
          <TextInput
            label={t('waypointScreens.columns.name')}
            required
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
                allowDeselect={false}
                data={WAYPOINT_TYPES.map((c) => ({ value: String(c), label: t(`mapEditor.waypointTypes.${c}`) }))}
                value={String(field.value)}
                onChange={(v) => field.onChange(Number(v))}
                error={err('type')}
              />
            )}
          />
        </Stack>
      </LockedFields>
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
    </FormShell>
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
      <WaypointForm
        key={waypoint?.id ?? 'new'}
        floorId={floorId}
        waypoint={waypoint}
        canEdit={canEdit}
        onReload={async () => (await query.refetch()).data}
      />
    </Stack>
  );
}
