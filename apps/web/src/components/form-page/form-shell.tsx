import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { BaseSyntheticEvent, ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useErrorText } from '@/lib/i18n';
import { hasCode } from '@/lib/server-errors';
import { useLeaveGuard } from '@/lib/use-leave-guard';
import type { FormKit } from './use-form-kit';

interface FormShellProps<T extends FieldValues> {
  kit: FormKit<T, never> | FormKit<T, unknown>;
  /** `kit.form.handleSubmit(...)`. */
  onSubmit: (e?: BaseSyntheticEvent) => Promise<void>;
  /** The save's state (a TanStack Query mutation). */
  mutation: { error: unknown; isPending: boolean };
  /** The save button's text (`Save` unless named). */
  submitLabel?: string;
  /** Where Cancel goes (the list, the record's page); without it Cancel puts back the stored values. */
  cancelTo?: string;
  /** The form's accessible name. */
  label: string;
  testId?: string;
  submitTestId?: string;
  /** Without the right to save: the fields are shown, the buttons are not. */
  readOnly?: boolean;
  /** More buttons left of Cancel (e.g. delete). */
  actions?: ReactNode;
  maw?: number | string;
  children: ReactNode;
}

/**
 * THE frame of every create and edit form: the fields, Cancel and Save, one alert for a failure no
 * field explains, the conflict dialog of a stale update (409), and the question before leaving with
 * unsaved changes. Its behaviour comes from {@link useFormKit}.
 */
export function FormShell<T extends FieldValues>({
  kit,
  onSubmit,
  mutation,
  submitLabel,
  cancelTo,
  label,
  testId,
  submitTestId,
  readOnly = false,
  actions,
  maw = 720,
  children,
}: FormShellProps<T>) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const { isDirty } = kit.form.formState;
  useLeaveGuard(isDirty && !readOnly);

  const failure = mutation.error;
  const alert =
    failure !== null && failure !== undefined && !kit.fieldErrorShown && !hasCode(failure, 'STALE_UPDATE')
      ? errorText(failure)
      : null;

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label={label} data-testid={testId}>
      <Stack maw={maw}>
        {alert !== null && (
          <Alert color="red" role="alert" data-testid="form-error">
            {alert}
          </Alert>
        )}
        {children}
        {!readOnly && (
          <Group justify="flex-end">
            {actions}
            <Button
              variant="default"
              disabled={cancelTo === undefined && !isDirty}
              onClick={() => (cancelTo === undefined ? kit.form.reset() : void navigate(cancelTo))}
              data-testid="form-cancel"
            >
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={mutation.isPending} data-testid={submitTestId}>
              {submitLabel ?? t('common.save')}
            </Button>
          </Group>
        )}
      </Stack>
      <ConflictDialog kit={kit} />
    </form>
  );
}

/** 409 STALE_UPDATE: show the stored version (discarding the typed values) or keep the typed values. */
function ConflictDialog<T extends FieldValues>({ kit }: { kit: FormKit<T, never> | FormKit<T, unknown> }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={kit.conflict !== null}
      onClose={kit.dismissConflict}
      title={t('common.conflict.title')}
      centered
      data-testid="conflict-dialog"
    >
      <Stack>
        <Text size="sm">{t(kit.keepMine ? 'common.conflict.body' : 'common.conflict.bodyReloadOnly')}</Text>
        <Group justify="flex-end">
          {kit.keepMine && (
            <Button variant="default" onClick={() => void kit.keepMine?.()} data-testid="conflict-keep">
              {t('common.conflict.keep')}
            </Button>
          )}
          {kit.reloadStored ? (
            <Button color="orange" onClick={() => void kit.reloadStored?.()} data-testid="conflict-reload">
              {t('common.conflict.reload')}
            </Button>
          ) : (
            <Button onClick={kit.dismissConflict}>{t('common.close')}</Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
