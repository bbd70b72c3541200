import { Anchor, Button, Group, Paper, Stack, Title } from '@mantine/core';
import type { Flow } from '@portal/contract';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { showNotification } from '@/lib/notify';
import { useSession } from '@/lib/session';
import { useDeleteFlow, useFlow } from '../api';
import { FlowForm } from './flow-form';

/** /flow/create: a new flow (in the user's building), then its page. */
export function FlowCreate() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  return (
    <Stack>
      <Anchor component={Link} to={paths.flow.settings.getHref()} size="sm">
        ← {t('flowEditor.back')}
      </Anchor>
      <Title order={1} size="h2">
        {t('flowEditor.createTitle')}
      </Title>
      <Paper withBorder p="md">
        <FlowForm
          initialBuildingId={session?.buildingId ?? null}
          cancelTo={paths.flow.settings.getHref()}
          onCreated={(f) => void navigate(paths.flow.detail.getHref(f.id), { replace: true })}
        />
      </Paper>
    </Stack>
  );
}

/**
 * /flow/:id: edit a flow (the server refuses a restricted operator's save with the §6 message);
 * `runAction` (composed by the route) stands beside the title: "Run on robot".
 */
export function FlowPage({ id, runAction }: { id: number; runAction?: (flow: Flow) => ReactNode }) {
  const { t } = useTranslation();
  const flow = useFlow(id);
  if (flow.isPending) return <PageLoader />;
  if (flow.isError) return <QueryError error={flow.error} onRetry={() => void flow.refetch()} />;
  return (
    <Stack>
      <Anchor component={Link} to={paths.flow.settings.getHref()} size="sm">
        ← {t('flowEditor.back')}
      </Anchor>
      <Group justify="space-between" align="flex-end">
        <Title order={1} size="h2" data-testid="flow-title">
          {flow.data.name}
        </Title>
        {runAction?.(flow.data)}
      </Group>
      <FlowEdit flow={flow.data} onReload={async () => (await flow.refetch()).data} />
    </Stack>
  );
}

function FlowEdit({ flow, onReload }: { flow: Flow; onReload: () => Promise<Flow | undefined> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const remove = useDeleteFlow();
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Paper withBorder p="md">
        <FlowForm
          flow={flow}
          onReload={onReload}
          cancelTo={paths.flow.settings.getHref()}
          extraActions={
            <Button color="red" variant="light" onClick={() => setConfirming(true)} data-testid="flow-delete">
              {t('flowEditor.delete')}
            </Button>
          }
        />
      </Paper>
      <ConfirmDialog
        opened={confirming}
        title={t('flowEditor.deleteTitle')}
        confirmLabel={t('flowEditor.delete')}
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(flow.id, {
            onSettled: () => setConfirming(false),
            onSuccess: () => {
              showNotification({ color: 'green', message: t('flowEditor.deleted') });
              void navigate(paths.flow.settings.getHref());
            },
          })
        }
      >
        {t('flowEditor.deleteBody', { name: flow.name })}
      </ConfirmDialog>
    </>
  );
}
