import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { groupInputSchema, updateGroupBodySchema, type Group as GroupRow } from '@portal/contract';
import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { FormShell, LockedFields, useFormKit } from '@/components/form-page';
import { useCreateGroup } from '../api/create-group';
import { useDeleteGroup } from '../api/delete-group';
import { useBuilding } from '../api/get-building';
import { useGroup } from '../api/get-group';
import type { GroupKind } from '../api/get-groups';
import { useUpdateGroup } from '../api/update-group';
import { hasCode } from '@/lib/server-errors';
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

interface GroupFormProps {
  kind: GroupKind;
  buildingId: number;
  /** The stored group (edit), or none (create). */
  group?: GroupRow;
  canManage: boolean;
  /** Edit: fetches the stored group again (the conflict dialog's answers). */
  onReload?: () => Promise<GroupRow | undefined>;
  /** Buttons at the start of the row (delete). */
  startActions?: ReactNode;
}

const nameOf = (g: GroupRow): NameValues => ({ name: g.name });

/** A robot or flow group's name, on the form kit. */
function GroupForm({ kind, buildingId, group, canManage, onReload, startActions }: GroupFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateGroup(kind);
  const update = useUpdateGroup(kind, group?.id ?? 0);
  const mutation = group ? update : create;
  const form = useForm<NameValues>({
    resolver: zodResolver(nameSchema),
    defaultValues: { name: group?.name ?? '' },
  });
  const kit = useFormKit(form, { fields: ['name'], record: group, reload: onReload, toValues: nameOf });
  const { base } = kit;
  const onSubmit = form.handleSubmit(({ name }) => {
    if (base) update.mutate(updateGroupBodySchema.parse({ name, updatedAt: base.updatedAt }), kit.saved());
    else
      create.mutate(
        { buildingId, name },
        kit.saved({
          successText: t('buildings.groups.created'),
          onSuccess: () => void navigate(paths.building.detail.getHref(buildingId, tabOf(kind))),
        }),
      );
  });
  return (
    <FormShell
      kit={kit}
      onSubmit={onSubmit}
      mutation={mutation}
      label={t('buildings.groups.name')}
      submitTestId="group-save"
      readOnly={!canManage}
      createCancelTo={paths.building.detail.getHref(buildingId, tabOf(kind))}
      startActions={startActions}
      maw="none"
    >
      <LockedFields locked={!canManage}>
        <TextInput label={t('buildings.groups.name')} required error={kit.err('name')} {...form.register('name')} />
      </LockedFields>
    </FormShell>
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
        <GroupForm kind={kind} buildingId={buildingId} canManage={canManage} />
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
  const remove = useDeleteGroup(kind, group.buildingId);
  const [confirming, setConfirming] = useState(false);
  return (
    <Paper withBorder p="md">
      {remove.isError && (
        <Alert color="red" role="alert" mb="md">
          {hasCode(remove.error, 'IN_USE') ? t('buildings.groups.inUse') : errorText(remove.error)}
        </Alert>
      )}
      <GroupForm
        kind={kind}
        buildingId={group.buildingId}
        group={group}
        canManage={canManage}
        onReload={onReload}
        startActions={
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
