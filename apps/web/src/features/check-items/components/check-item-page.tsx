import { Anchor, Button, Paper, Stack, Title } from '@mantine/core';
import { isAdmin, type CheckItem } from '@portal/contract';
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
import { useCheckItem, useDeleteCheckItem } from '../api';
import { CheckItemForm } from './check-item-form';

function BackLink() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to={paths.checkItem.list.getHref()} size="sm">
      ← {t('checkItems.back')}
    </Anchor>
  );
}

/** Administrators write check items (the server checks it too). */
export const useCanWrite = () => {
  const session = useSession();
  return session !== null && isAdmin(session.type);
};

/** /check-item/create: a new item; `?building=10` (the list's building), else the user's building. */
export function CheckItemCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const [search] = useSearchParams();
  const canWrite = useCanWrite();
  return (
    <Stack>
      <BackLink />
      <Title order={1} size="h2">
        {t('checkItems.createTitle')}
      </Title>
      <Paper withBorder p="md">
        <CheckItemForm
          readOnly={!canWrite}
          initial={{ buildingId: positiveInt(search.get('building')) ?? session?.buildingId ?? undefined }}
          onCreated={(c) => void navigate(paths.checkItem.detail.getHref(c.id), { replace: true })}
        />
      </Paper>
    </Stack>
  );
}

/** /check-item/:id: edit or delete an item (administrators); others see it read-only. */
export function CheckItemPage({ id }: { id: number }) {
  const item = useCheckItem(id);
  if (item.isPending) return <PageLoader />;
  if (item.isError) return <QueryError error={item.error} onRetry={() => void item.refetch()} />;
  return (
    <Stack>
      <BackLink />
      <Title order={1} size="h2" data-testid="check-item-heading" style={{ overflowWrap: 'anywhere' }}>
        {item.data.name}
      </Title>
      <CheckItemEdit item={item.data} onReload={async () => (await item.refetch()).data} />
    </Stack>
  );
}

function CheckItemEdit({ item, onReload }: { item: CheckItem; onReload: () => Promise<CheckItem | undefined> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const remove = useDeleteCheckItem();
  const canWrite = useCanWrite();
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Paper withBorder p="md">
        <CheckItemForm
          item={item}
          readOnly={!canWrite}
          onReload={onReload}
          startActions={
            <Button color="red" variant="light" onClick={() => setConfirming(true)} data-testid="check-item-delete">
              {t('checkItems.form.delete')}
            </Button>
          }
        />
      </Paper>
      <ConfirmDialog
        opened={confirming}
        title={t('checkItems.form.deleteTitle')}
        confirmLabel={t('checkItems.form.delete')}
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(item.id, {
            onSettled: () => setConfirming(false),
            onSuccess: () => {
              showNotification({ color: 'green', message: t('checkItems.form.deleted') });
              allowLeave();
              void navigate(paths.checkItem.list.getHref());
            },
          })
        }
      >
        {t('checkItems.form.deleteBody', { name: item.name })}
      </ConfirmDialog>
    </>
  );
}
