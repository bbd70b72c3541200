import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { PoseDef } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useDeletePoseDef } from '../api/delete-pose-def';
import { usePoseDef } from '../api/get-pose-def';
import { emptyPoseForm, PoseForm } from './pose-form';

interface Common {
  canManage: boolean;
  /** The full-width pose editor (/editor/pose). */
  editor?: boolean;
}

/** /pose-def/create and /editor/pose without an id: a new pose, then its page. */
export function PoseDefCreate({ canManage, editor, buildingId }: Common & { buildingId?: number | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Stack>
      <Anchor component={Link} to={paths.poseDef.list.getHref()} size="sm">
        ← {t('poseDefs.back')}
      </Anchor>
      <Title order={1} size="h2">
        {editor ? t('poseEditor.createTitle') : t('poseDefs.createTitle')}
      </Title>
      <Paper withBorder p="md">
        <PoseForm
          wide={editor}
          readOnly={!canManage}
          initial={emptyPoseForm(buildingId ?? null)}
          cancelTo={paths.poseDef.list.getHref()}
          onCreated={(pose) =>
            void navigate(editor ? paths.editor.pose.getHref(pose.id) : paths.poseDef.detail.getHref(pose.id), {
              replace: true,
            })
          }
        />
      </Paper>
    </Stack>
  );
}

/** /pose-def/:id and /editor/pose?id=: view or edit a pose (read-only for non-admins). */
export function PoseDefPage({ id, canManage, editor }: Common & { id: number }) {
  const { t } = useTranslation();
  const pose = usePoseDef(id);
  if (pose.isPending) return <PageLoader />;
  if (pose.isError) return <QueryError error={pose.error} onRetry={() => void pose.refetch()} />;
  return (
    <PoseDefEdit
      pose={pose.data}
      canManage={canManage}
      editor={editor}
      onReload={async () => (await pose.refetch()).data}
    >
      <Group justify="space-between" align="flex-end">
        <div>
          <Anchor component={Link} to={paths.poseDef.list.getHref()} size="sm">
            ← {t('poseDefs.back')}
          </Anchor>
          <Title order={1} size="h2" data-testid="pose-title">
            {editor ? `${t('poseEditor.title')} — ${pose.data.name}` : pose.data.name}
          </Title>
          <Text c="dimmed" size="sm">
            {t(`poseCommon.armModels.${pose.data.armModel}`)} · {t(`poseCommon.armTypes.${pose.data.armType}`)} ·{' '}
            {pose.data.buildingName ?? t('poseCommon.wholeOrganization')}
          </Text>
        </div>
        {!editor && (
          <Button component={Link} to={paths.editor.pose.getHref(id)} variant="light" data-testid="pose-open-editor">
            {t('poseDefs.openEditor')}
          </Button>
        )}
      </Group>
    </PoseDefEdit>
  );
}

function PoseDefEdit({
  pose,
  canManage,
  editor,
  onReload,
  children,
}: Common & { pose: PoseDef; onReload: () => Promise<PoseDef | undefined>; children: React.ReactNode }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const remove = useDeletePoseDef();
  const [confirming, setConfirming] = useState(false);
  const inUseNames =
    isApiError(remove.error) && remove.error.code === 'IN_USE'
      ? remove.error.details.map((d) => d.message).join(', ')
      : null;

  return (
    <Stack>
      {children}
      {!canManage && (
        <Text c="dimmed" size="sm">
          {t('poseCommon.readOnly')}
        </Text>
      )}
      {remove.isError && (
        <Alert color="red" role="alert" data-testid="pose-delete-error">
          {inUseNames ? t('poseDefs.inUse', { names: inUseNames }) : errorText(remove.error)}
        </Alert>
      )}
      <Paper withBorder p="md">
        <PoseForm
          pose={pose}
          onReload={onReload}
          wide={editor}
          readOnly={!canManage}
          extraActions={
            <Button color="red" variant="light" onClick={() => setConfirming(true)} data-testid="pose-delete">
              {t('poseCommon.delete')}
            </Button>
          }
        />
      </Paper>
      <ConfirmDialog
        opened={confirming}
        title={t('poseDefs.deleteTitle')}
        confirmLabel={t('poseCommon.delete')}
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(pose.id, {
            onSettled: () => setConfirming(false),
            onSuccess: () => {
              showNotification({ color: 'green', message: t('poseCommon.deleted') });
              void navigate(paths.poseDef.list.getHref());
            },
          })
        }
      >
        {t('poseDefs.deleteBody', { name: pose.name })}
      </ConfirmDialog>
    </Stack>
  );
}
