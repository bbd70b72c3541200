import { Alert, Anchor, Button, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { Command } from '@portal/contract';
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
import { useDeleteCommand } from '../api/delete-command';
import { useCommand } from '../api/get-command';
import { CommandForm } from './command-form';
import { flowHref } from './flow-href';

interface Common {
  canManage: boolean;
  systemAdmin?: boolean;
}

/** /command/create: a new command, then its page. */
export function CommandCreate({ systemAdmin }: { systemAdmin?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Stack>
      <Anchor component={Link} to={paths.command.list.getHref()} size="sm">
        ← {t('commands.back')}
      </Anchor>
      <Title order={1} size="h2">
        {t('commands.createTitle')}
      </Title>
      <Paper withBorder p="md">
        <CommandForm
          systemAdmin={systemAdmin}
          cancelTo={paths.command.list.getHref()}
          onCreated={(c) => void navigate(paths.command.detail.getHref(c.id), { replace: true })}
        />
      </Paper>
    </Stack>
  );
}

/** /command/:id: view or edit a command (read-only for those who may not change it). */
export function CommandPage({ id, canManage, systemAdmin, listHref }: Common & { id: number; listHref: string }) {
  const { t } = useTranslation();
  const command = useCommand(id);
  if (command.isPending) return <PageLoader />;
  if (command.isError) return <QueryError error={command.error} onRetry={() => void command.refetch()} />;
  // A system command is changed by system administrators only (the server answers 403 to others).
  const mayChange = canManage && (systemAdmin || command.data.organizationId !== null);
  return (
    <Stack>
      <Anchor component={Link} to={listHref} size="sm">
        ← {t('commands.back')}
      </Anchor>
      <Title order={1} size="h2" data-testid="command-title">
        {command.data.name}
      </Title>
      {!mayChange && (
        <Alert color="blue" data-testid="command-read-only">
          {t('commands.readOnly')}
        </Alert>
      )}
      <CommandEdit
        command={command.data}
        canManage={mayChange}
        systemAdmin={systemAdmin}
        listHref={listHref}
        onReload={async () => (await command.refetch()).data}
      />
    </Stack>
  );
}

function CommandEdit({
  command,
  canManage,
  systemAdmin,
  listHref,
  onReload,
}: Common & { command: Command; listHref: string; onReload: () => Promise<Command | undefined> }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const remove = useDeleteCommand();
  const [confirming, setConfirming] = useState(false);
  const users =
    isApiError(remove.error) && remove.error.code === 'IN_USE'
      ? remove.error.details
          .filter((d) => d.path.startsWith('flows.'))
          .map((d) => ({ id: Number(d.path.slice('flows.'.length)), name: d.message }))
      : null;

  return (
    <Stack>
      {remove.isError && (
        <Alert color="red" role="alert" data-testid="command-delete-error">
          {users ? (
            <Stack gap={4}>
              <Text size="sm">{t('commands.inUse')}</Text>
              <List size="sm">
                {users.map((u) => (
                  <List.Item key={u.id}>
                    <Anchor component={Link} to={flowHref(u.id)} size="sm">
                      {u.name}
                    </Anchor>
                  </List.Item>
                ))}
              </List>
              <Anchor
                component={Link}
                to={paths.command.usage.getHref(command.id)}
                size="sm"
                data-testid="command-usage-link"
              >
                {t('commands.showUsage')}
              </Anchor>
            </Stack>
          ) : (
            errorText(remove.error)
          )}
        </Alert>
      )}
      <Paper withBorder p="md">
        <CommandForm
          command={command}
          onReload={onReload}
          readOnly={!canManage}
          systemAdmin={systemAdmin}
          cancelTo={listHref}
          extraActions={
            <>
              <Button color="red" variant="light" onClick={() => setConfirming(true)} data-testid="command-delete">
                {t('commands.delete')}
              </Button>
              <Button component={Link} to={paths.command.usage.getHref(command.id)} variant="subtle">
                {t('commands.showUsage')}
              </Button>
            </>
          }
        />
      </Paper>
      <ConfirmDialog
        opened={confirming}
        title={t('commands.deleteTitle')}
        confirmLabel={t('commands.delete')}
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(command.id, {
            onSettled: () => setConfirming(false),
            onSuccess: () => {
              showNotification({ color: 'green', message: t('commands.deleted') });
              void navigate(listHref);
            },
          })
        }
      >
        {t('commands.deleteBody', { name: command.name })}
      </ConfirmDialog>
    </Stack>
  );
}
