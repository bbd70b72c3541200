import { Alert, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { Operator } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useDeleteOperator } from '../api/delete-operator';
import { useForcePasswordChange } from '../api/force-password-change';
import { useLockOperator } from '../api/lock-operator';
import { useUnlockOperator } from '../api/unlock-operator';
import { ConfirmButton } from '@/components/confirm-button';

export const isLocked = (o: Pick<Operator, 'lockedUntil'>, now = Date.now()) =>
  o.lockedUntil !== null && Date.parse(o.lockedUntil) > now;

/** Lock, unlock, force a password change, delete: each asks first and says what happened. */
export function OperatorActions({ operator, self }: { operator: Operator; self: boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const lock = useLockOperator();
  const unlock = useUnlockOperator();
  const force = useForcePasswordChange();
  const remove = useDeleteOperator();
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const name = t('people.op.fullName', { lastName: operator.lastName, firstName: operator.firstName });
  const after = (message: string) => ({
    onSuccess: () => {
      setError(null);
      setDone(message);
      showNotification({ color: 'green', message });
    },
    onError: (e: unknown) => {
      setDone(null);
      setError(e);
    },
  });
  const locked = isLocked(operator);

  return (
    <Paper withBorder p="md" maw={720} component="section" aria-labelledby="operator-actions-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="operator-actions-title">
          {t('people.op.accountTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('people.op.sessionsEnd')}
        </Text>
        <div role="status" aria-live="polite">
          {done && (
            <Alert color="green" data-testid="operator-action-done">
              {done}
            </Alert>
          )}
        </div>
        {error !== null && (
          <Alert color="red" role="alert">
            {errorText(error)}
          </Alert>
        )}
        <Group>
          {locked ? (
            <ConfirmButton
              color="blue"
              label={t('people.op.unlock')}
              message={t('people.op.unlockConfirm', { name })}
              loading={unlock.isPending}
              testId="operator-unlock"
              onConfirm={() => unlock.mutate(operator.id, after(t('people.op.unlockedDone')))}
            />
          ) : (
            <ConfirmButton
              color="orange"
              label={t('people.op.lock')}
              disabled={self}
              message={
                <>
                  {t('people.op.lockConfirm', { name })} {t('people.op.sessionsEnd')}
                </>
              }
              loading={lock.isPending}
              testId="operator-lock"
              onConfirm={() => lock.mutate(operator.id, after(t('people.op.lockedDone')))}
            />
          )}
          <ConfirmButton
            color="blue"
            label={t('people.op.forcePasswordChange')}
            message={t('people.op.forceConfirm', { name })}
            loading={force.isPending}
            testId="operator-force"
            onConfirm={() => force.mutate(operator.id, after(t('people.op.forcedDone')))}
          />
          <ConfirmButton
            label={t('people.delete')}
            disabled={self}
            message={
              <>
                {t('people.op.deleteConfirm', { name })} {t('people.op.sessionsEnd')}
              </>
            }
            loading={remove.isPending}
            testId="operator-delete"
            onConfirm={() =>
              remove.mutate(operator.id, {
                onSuccess: () => {
                  showNotification({ color: 'green', message: t('people.deleted') });
                  void navigate(paths.operator.list.getHref());
                },
                onError: (e) => setError(e),
              })
            }
          />
        </Group>
      </Stack>
    </Paper>
  );
}
