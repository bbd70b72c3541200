import { Alert, Anchor, Button, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { ThresholdRule } from '@portal/contract';
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
import { useDeleteThresholdRule, useThresholdRule } from '../api';
import { ThresholdForm } from './threshold-form';

/** /threshold/create: a new rule, then its page. */
export function ThresholdCreate() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Stack>
      <Anchor component={Link} to={paths.threshold.list.getHref()} size="sm">
        ← {t('thresholds.back')}
      </Anchor>
      <Title order={1} size="h2">
        {t('thresholds.createTitle')}
      </Title>
      <Paper withBorder p="md">
        <ThresholdForm
          cancelTo={paths.threshold.list.getHref()}
          onCreated={(r) => void navigate(paths.threshold.detail.getHref(r.id), { replace: true })}
        />
      </Paper>
    </Stack>
  );
}

/** /threshold/{id}: view or edit a rule (read-only, with the §6 notice, for those who may not change it). */
export function ThresholdPage({ id, canManage }: { id: number; canManage: boolean }) {
  const { t } = useTranslation();
  const rule = useThresholdRule(id);
  if (rule.isPending) return <PageLoader />;
  if (rule.isError) return <QueryError error={rule.error} onRetry={() => void rule.refetch()} />;
  return (
    <Stack>
      <Anchor component={Link} to={paths.threshold.list.getHref()} size="sm">
        ← {t('thresholds.back')}
      </Anchor>
      <Title order={1} size="h2" data-testid="threshold-title">
        {rule.data.name}
      </Title>
      {!canManage && (
        <Alert color="blue" data-testid="threshold-read-only">
          {t('thresholds.readOnly')}
        </Alert>
      )}
      <ThresholdEdit rule={rule.data} canManage={canManage} onReload={async () => (await rule.refetch()).data} />
    </Stack>
  );
}

function ThresholdEdit({
  rule,
  canManage,
  onReload,
}: {
  rule: ThresholdRule;
  canManage: boolean;
  onReload: () => Promise<ThresholdRule | undefined>;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const remove = useDeleteThresholdRule();
  const [confirming, setConfirming] = useState(false);
  const listHref = paths.threshold.list.getHref();
  // 409 IN_USE: the check items that use the rule (`checkItems.{id}`, their names).
  const users =
    isApiError(remove.error) && remove.error.code === 'IN_USE'
      ? remove.error.details
          .filter((d) => d.path.startsWith('checkItems.'))
          .map((d) => ({ id: Number(d.path.slice('checkItems.'.length)), name: d.message }))
      : null;
  return (
    <Stack>
      {remove.isError && (
        <Alert color="red" role="alert" data-testid="threshold-delete-error">
          {users ? (
            <Stack gap={4}>
              <Text size="sm">{t('thresholds.inUse')}</Text>
              <List size="sm">
                {users.map((u) => (
                  <List.Item key={u.id}>
                    <Anchor component={Link} to={paths.checkItem.detail.getHref(u.id)} size="sm">
                      {u.name}
                    </Anchor>
                  </List.Item>
                ))}
              </List>
            </Stack>
          ) : (
            errorText(remove.error)
          )}
        </Alert>
      )}
      <Paper withBorder p="md">
        <ThresholdForm
          rule={rule}
          onReload={onReload}
          readOnly={!canManage}
          cancelTo={listHref}
          extraActions={
            <Button color="red" variant="light" onClick={() => setConfirming(true)} data-testid="threshold-delete">
              {t('thresholds.delete')}
            </Button>
          }
        />
      </Paper>
      <ConfirmDialog
        opened={confirming}
        title={t('thresholds.deleteTitle')}
        confirmLabel={t('thresholds.delete')}
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(rule.id, {
            onSettled: () => setConfirming(false),
            onSuccess: () => {
              showNotification({ color: 'green', message: t('thresholds.deleted') });
              void navigate(listHref);
            },
          })
        }
      >
        {t('thresholds.deleteBody', { name: rule.name })}
      </ConfirmDialog>
    </Stack>
  );
}
