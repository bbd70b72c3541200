import { Anchor, Button, Paper, Stack, Title } from '@mantine/core';
import { ALL_COMMAND_MODES, isDataAdmin, type CommandMapping } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { positiveInt } from '@/lib/list-params';
import { showNotification } from '@/lib/notify';
import { useSession } from '@/lib/session';
import { allowLeave } from '@/lib/use-leave-guard';
import { useCommandMapping, useDeleteCommandMapping } from '../api';
import { CommandMappingForm } from './command-mapping-form';
import { ReadOnlyNotice } from './read-only-notice';

function BackLink() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to={paths.commandMapping.list.getHref()} size="sm">
      ← {t('commandMappings.back')}
    </Anchor>
  );
}

/** Organization and system administrators write command mappings (the server checks it too); others read. */
export const useCanWrite = () => {
  const session = useSession();
  return session !== null && isDataAdmin(session.type);
};

/** /command-mapping/create: a new mapping; `?building=10&mode=11` preset (the list's filters), else the user's building. */
export function CommandMappingCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const [search] = useSearchParams();
  const canWrite = useCanWrite();
  const mode = ALL_COMMAND_MODES.find((m) => String(m) === search.get('mode'));
  return (
    <Stack>
      <BackLink />
      <Title order={1} size="h2">
        {t('commandMappings.createTitle')}
      </Title>
      {!canWrite && <ReadOnlyNotice />}
      <Paper withBorder p="md">
        <CommandMappingForm
          readOnly={!canWrite}
          initial={{
            buildingId: positiveInt(search.get('building')) ?? session?.buildingId ?? undefined,
            ...(mode === undefined ? {} : { mode }),
          }}
          onCreated={(m) => void navigate(paths.commandMapping.detail.getHref(m.id), { replace: true })}
        />
      </Paper>
    </Stack>
  );
}

/** /command-mapping/:id: edit or delete a mapping (administrators); others see it read-only with the §6 notice. */
export function CommandMappingPage({ id }: { id: number }) {
  const mapping = useCommandMapping(id);
  const canWrite = useCanWrite();
  if (mapping.isPending) return <PageLoader />;
  if (mapping.isError) return <QueryError error={mapping.error} onRetry={() => void mapping.refetch()} />;
  return (
    <Stack>
      <BackLink />
      <Title order={1} size="h2" data-testid="command-mapping-heading" style={{ overflowWrap: 'anywhere' }}>
        {mapping.data.name}
      </Title>
      {!canWrite && <ReadOnlyNotice />}
      <CommandMappingEdit mapping={mapping.data} onReload={async () => (await mapping.refetch()).data} />
    </Stack>
  );
}

function CommandMappingEdit({
  mapping,
  onReload,
}: {
  mapping: CommandMapping;
  onReload: () => Promise<CommandMapping | undefined>;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const remove = useDeleteCommandMapping();
  const canWrite = useCanWrite();
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Paper withBorder p="md">
        <CommandMappingForm
          mapping={mapping}
          readOnly={!canWrite}
          onReload={onReload}
          startActions={
            <Button
              color="red"
              variant="light"
              onClick={() => setConfirming(true)}
              data-testid="command-mapping-delete"
            >
              {t('commandMappings.form.delete')}
            </Button>
          }
        />
      </Paper>
      <ConfirmDialog
        opened={confirming}
        title={t('commandMappings.form.deleteTitle')}
        confirmLabel={t('commandMappings.form.delete')}
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(mapping.id, {
            onSettled: () => setConfirming(false),
            onSuccess: () => {
              showNotification({ color: 'green', message: t('commandMappings.form.deleted') });
              allowLeave();
              void navigate(paths.commandMapping.list.getHref());
            },
          })
        }
      >
        {t('commandMappings.form.deleteBody', { name: mapping.name })}
      </ConfirmDialog>
    </>
  );
}
