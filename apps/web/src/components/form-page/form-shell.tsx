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
  /** A form that creates or edits: the save button's text while it creates (no stored record, `kit.base`). */
  createLabel?: string;
  /** A form that creates or edits: where Cancel goes while it creates (on an edit it puts back the stored values). */
  createCancelTo?: string;
  /** Cancel's text (`Cancel` unless named, e.g. "Back to list" with `cancelTo`). */
  cancelLabel?: string;
  /** The form's accessible name. */
  label: string;
  testId?: string;
  submitTestId?: string;
  /**
   * Without the right to save: the fields are shown (lock them with {@link LockedFields}), Save and
   * the actions are not; Cancel stays only as the way back (`cancelTo`).
   */
  readOnly?: boolean;
  /** More buttons left of Cancel. */
  actions?: ReactNode;
  /** Buttons at the start of the row, apart from Cancel and Save (e.g. delete). */
  startActions?: ReactNode;
  maw?: number | string;
  /**
   * A small form inside a page (e.g. adding an entry to a list): the fields, Save and the actions in
   * one wrapping row, without Cancel.
   */
  inline?: boolean;
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
  cancelTo: cancelToGiven,
  createLabel,
  createCancelTo,
  cancelLabel,
  label,
  testId,
  submitTestId,
  readOnly = false,
  actions,
  startActions,
  maw = 720,
  inline = false,
  children,
}: FormShellProps<T>) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const { isDirty } = kit.form.formState;
  const creating = kit.base === undefined;
  const cancelTo = cancelToGiven ?? (creating ? createCancelTo : undefined);
  useLeaveGuard(isDirty && !readOnly);

  const failure = mutation.error;
  const alert =
    failure !== null &&
    failure !== undefined &&
    !kit.fieldErrorShown &&
    !kit.editedSinceFailure &&
    !hasCode(failure, 'STALE_UPDATE')
      ? errorText(failure)
      : null;
  const save = (
    <Button type="submit" loading={mutation.isPending} data-testid={submitTestId}>
      {submitLabel ?? (creating ? createLabel : undefined) ?? t('common.save')}
    </Button>
  );

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label={label} data-testid={testId}>
      <Stack maw={maw}>
        {alert !== null && (
          <Alert color="red" role="alert" data-testid="form-error">
            {alert}
          </Alert>
        )}
        {inline && (
          <Group align="flex-end" wrap="wrap" gap="xs">
            {children}
            {!readOnly && (
              <Group gap="xs">
                {save}
                {actions}
              </Group>
            )}
          </Group>
        )}
        {!inline && children}
        {!inline && (!readOnly || cancelTo !== undefined) && (
          <Group justify={startActions !== undefined && !readOnly ? 'space-between' : 'flex-end'}>
            {startActions !== undefined && !readOnly && <Group>{startActions}</Group>}
            <Group>
              {!readOnly && actions}
              <Button
                variant="default"
                disabled={cancelTo === undefined && !isDirty}
                onClick={() => (cancelTo === undefined ? kit.form.reset() : void navigate(cancelTo))}
                data-testid="form-cancel"
              >
                {cancelLabel ?? t('common.cancel')}
              </Button>
              {!readOnly && save}
            </Group>
          </Group>
        )}
      </Stack>
      <ConflictDialog kit={kit} />
    </form>
  );
}

/**
 * The fields of a form its viewer may not save: every input inside is disabled (a bare fieldset, so
 * the layout is the same either way). Wrap the whole form, or only the part that must not change.
 */
export function LockedFields({ locked, children }: { locked: boolean | undefined; children: ReactNode }) {
  return (
    <fieldset disabled={locked} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      {children}
    </fieldset>
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
