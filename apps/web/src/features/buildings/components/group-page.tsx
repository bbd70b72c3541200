import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { groupInputSchema, updateGroupBodySchema, type Group as GroupRow } from '@portal/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { useErrorText, useMessageText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useCreateGroup } from '../api/create-group';
import { useDeleteGroup } from '../api/delete-group';
import { useBuilding } from '../api/get-building';
import { useGroup } from '../api/get-group';
import type { GroupKind } from '../api/get-groups';
import { useUpdateGroup } from '../api/update-group';
import { hasCode } from '@/lib/server-errors';
import { SaveErrorAlert } from '@/components/save-error-alert';
import { ConfirmDialog } from '@/components/confirm-dialog';

const nameSchema = z.object({ name: groupInputSchema.shape.name });
type NameValues = z.infer<typeof nameSchema>;
const tabOf = (kind: GroupKind) => (kind === 'robot-group' ? 'robotGroups' : 'flowGroups');

function BuildingLink({ buildingId, kind }: { buildingId: number; kind: GroupKind }) {
  const { t } = useTranslation();
  const building = useBuilding(buildingId);
  return (
    <Anchor component={Link} to={paths.building.detail.getHref(buildingId, tabOf(kind))} size="sm">
      ← {building.data ? t('buildings.groups.building', { name: building.data.name }) : t('floors.back')}
    </Anchor>
  );
}

function NameForm({
  defaultName,
  saving,
  error,
  onSubmit,
  onReload,
  canManage,
  actions,
}: {
  defaultName: string;
  saving: boolean;
  error: unknown;
  onSubmit: (v: NameValues) => Promise<unknown>;
  onReload?: () => void;
  canManage: boolean;
  actions?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const form = useForm<NameValues>({ resolver: zodResolver(nameSchema), defaultValues: { name: defaultName } });
  return (
    <form
      noValidate
      onSubmit={(e) =>
        void form.handleSubmit(async (v) => {
          await onSubmit(v).catch(() => undefined);
        })(e)
      }
    >
      <Stack>
        <SaveErrorAlert
          error={error}
          onReload={onReload}
          staleText={t('buildings.groups.stale')}
          staleTestId="group-stale"
        />
        <TextInput
          label={t('buildings.groups.name')}
          required
          readOnly={!canManage}
          error={messageText(form.formState.errors.name?.message)}
          {...form.register('name')}
        />
        {canManage && (
          <Group justify="space-between">
            <Group>{actions}</Group>
            <Button type="submit" loading={saving} data-testid="group-save">
              {t('common.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

/** /building/robot-group/create?buildingId= (and flow groups). */
export function GroupCreatePage({
  kind,
  buildingId,
  canManage,
}: {
  kind: GroupKind;
  buildingId: number | null;
  canManage: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateGroup(kind);
  const robot = kind === 'robot-group';
  if (buildingId === null)
    return (
      <Alert color="orange" role="alert">
        {t('buildings.groups.missingBuilding')}{' '}
        <Anchor component={Link} to={paths.building.list.getHref()}>
          {t('buildings.back')}
        </Anchor>
      </Alert>
    );
  return (
    <Stack>
      <BuildingLink buildingId={buildingId} kind={kind} />
      <Title order={1} size="h2">
        {robot ? t('buildings.groups.createRobotTitle') : t('buildings.groups.createFlowTitle')}
      </Title>
      <Paper withBorder p="md">
        <NameForm
          defaultName=""
          canManage={canManage}
          saving={create.isPending}
          error={create.error}
          onSubmit={async ({ name }) => {
            await create.mutateAsync({ buildingId, name });
            showNotification({ color: 'green', message: t('buildings.groups.created') });
            void navigate(paths.building.detail.getHref(buildingId, tabOf(kind)));
          }}
        />
      </Paper>
    </Stack>
  );
}

function GroupEditor({
  kind,
  group,
  canManage,
  onReload,
}: {
  kind: GroupKind;
  group: GroupRow;
  canManage: boolean;
  onReload: () => Promise<GroupRow | undefined>;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const update = useUpdateGroup(kind, group.id);
  const remove = useDeleteGroup(kind, group.buildingId);
  const [confirming, setConfirming] = useState(false);
  const [generation, setGeneration] = useState(0);
  const [base, setBase] = useState(group.updatedAt);
  return (
    <Paper withBorder p="md">
      {remove.isError && (
        <Alert color="red" role="alert" mb="md">
          {hasCode(remove.error, 'IN_USE') ? t('buildings.groups.inUse') : errorText(remove.error)}
        </Alert>
      )}
      <NameForm
        key={generation}
        defaultName={group.name}
        canManage={canManage}
        saving={update.isPending}
        error={update.error}
        onReload={() =>
          void onReload().then((fresh) => {
            if (fresh) setBase(fresh.updatedAt);
            update.reset();
            setGeneration((g) => g + 1);
          })
        }
        onSubmit={async ({ name }) => {
          const saved = await update.mutateAsync(updateGroupBodySchema.parse({ name, updatedAt: base }));
          setBase(saved.updatedAt);
          showNotification({ color: 'green', message: t('common.saved') });
        }}
        actions={
          <Button color="red" variant="light" onClick={() => setConfirming(true)}>
            {t('buildings.groups.deleteButton')}
          </Button>
        }
      />
      <ConfirmDialog
        opened={confirming}
        title={t('buildings.groups.deleteTitle')}
        confirmLabel={t('buildings.delete.confirm')}
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(group.id, {
            onSettled: () => setConfirming(false),
            onSuccess: () => {
              showNotification({ color: 'green', message: t('buildings.groups.deleted') });
              void navigate(paths.building.detail.getHref(group.buildingId, tabOf(kind)));
            },
          })
        }
      >
        {t('buildings.groups.deleteBody', { name: group.name })}
      </ConfirmDialog>
    </Paper>
  );
}

/** /building/robot-group/:id (and flow groups): rename and delete. */
export function GroupEditPage({ kind, id, canManage }: { kind: GroupKind; id: number; canManage: boolean }) {
  const { t } = useTranslation();
  const group = useGroup(kind, id);
  if (group.isPending) return <PageLoader />;
  if (group.isError) return <QueryError error={group.error} onRetry={() => void group.refetch()} />;
  return (
    <Stack>
      <BuildingLink buildingId={group.data.buildingId} kind={kind} />
      <Title order={1} size="h2">
        {kind === 'robot-group' ? t('buildings.groups.editRobotTitle') : t('buildings.groups.editFlowTitle')}:{' '}
        {group.data.name}
      </Title>
      {!canManage && <Text c="dimmed">{t('buildings.readOnly')}</Text>}
      <GroupEditor
        kind={kind}
        group={group.data}
        canManage={canManage}
        onReload={async () => (await group.refetch()).data}
      />
    </Stack>
  );
}
