import { useEffect, useRef, useState } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useMessageText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { applyServerErrors, fieldErrorText, hasCode } from '@/lib/server-errors';
import { allowLeave } from '@/lib/use-leave-guard';

export interface FormKitOptions<T extends FieldValues, R> {
  /** The form's fields: a server error whose path names one of them is shown under it. */
  fields: readonly Path<T>[];
  /** The screen's sentence for a 409 DUPLICATE (shown under the field the server names). */
  duplicateText?: string;
  /**
   * Edit forms: the stored record as the page has it now. The form keeps the one its values started
   * from (`kit.base`, whose version a save sends): a newer record replaces it only while nothing is
   * typed, so a background refresh never makes a save overwrite a change the user has not seen.
   */
  record?: R;
  /** Edit forms: fetches the stored record again (the conflict dialog's two answers). */
  reload?: () => Promise<R | undefined>;
  /** The form's values for a stored record (to start again from a reloaded or saved one). */
  toValues?: (record: R) => T;
  /**
   * Translates a field's message (schema or server): the core `validation.*` texts unless given; a
   * section with its own message keys (e.g. `poseValidation.*`) passes its translator.
   */
  translate?: (message: string | undefined) => string | undefined;
}

export interface SaveOptions<D> {
  /** The toast's text (`common.saved` unless named); `false` shows none. */
  successText?: string | false;
  /** After a success, once the form counts as unchanged (e.g. navigate to the new record). */
  onSuccess?: (data: D) => void;
}

/** What the form kit gives a form; pass it whole to {@link FormShell}. */
export interface FormKit<T extends FieldValues, R = unknown> {
  form: UseFormReturn<T>;
  /** The stored record the form's values started from (send its version with a save). */
  base: R | undefined;
  /** The text under a field: its schema or server error, translated. */
  err: (name: Path<T>) => string | undefined;
  /** `mutate(vars, kit.saved())`: field errors on fields, toast, the form unchanged, leaving allowed. */
  saved: <D>(options?: SaveOptions<D>) => { onSuccess: (data: D) => void; onError: (error: unknown) => void };
  /** True while a server error is shown under a field (the shell then shows no alert). */
  fieldErrorShown: boolean;
  /** True once a field changed after the last failed save: its alert no longer speaks of the form. */
  editedSinceFailure: boolean;
  /** The 409 STALE_UPDATE being answered (the conflict dialog is open), or null. */
  conflict: unknown;
  dismissConflict: () => void;
  /** Conflict answer: start again from the stored record (the typed values are discarded). */
  reloadStored: (() => Promise<void>) | undefined;
  /** Conflict answer: keep the typed values over the stored record (saving again replaces it). */
  keepMine: (() => Promise<void>) | undefined;
}

/**
 * THE form behaviour of every create and edit screen, on a react-hook-form form validated with the
 * contract's schema: server field errors go under their fields, a success shows the toast and leaves
 * the form unchanged (so the leave guard lets go), a stale update (409) opens the conflict dialog.
 * The look is {@link FormShell}'s.
 */
export function useFormKit<T extends FieldValues, R = unknown>(
  form: UseFormReturn<T>,
  { fields, duplicateText, record, reload, toValues, translate }: FormKitOptions<T, R>,
): FormKit<T, R> {
  const { t } = useTranslation();
  const coreMessageText = useMessageText();
  const messageText = translate ?? coreMessageText;
  const [conflict, setConflict] = useState<unknown>(null);
  const [editedSinceFailure, setEditedSinceFailure] = useState(false);
  // A failed save's alert (a wrong current password, say) goes once the user changes the form.
  useEffect(() => {
    const watching = form.watch(() => setEditedSinceFailure(true));
    return () => watching.unsubscribe();
  }, [form]);
  const [base, setBase] = useState(record);
  const { errors, isDirty } = form.formState;

  // A newer stored record (another tab, an account action) is taken while nothing is typed
  // (state adjusted while rendering; the form gets its values in the effect below).
  if (record !== undefined && record !== base && !isDirty) setBase(record);
  const given = useRef(base);
  useEffect(() => {
    if (base === given.current) return;
    given.current = base;
    if (base !== undefined && toValues) form.reset(toValues(base));
  }, [base, toValues, form]);

  const startFrom = (fresh: R, keepTyped: boolean) => {
    given.current = fresh;
    setBase(fresh);
    if (toValues) form.reset(toValues(fresh), keepTyped ? { keepValues: true } : undefined);
  };

  const err = (name: Path<T>) => fieldErrorText(errors[name] as never, messageText);
  const fieldErrorShown = fields.some((f) => {
    const type = (errors[f] as { type?: string } | undefined)?.type;
    return type === 'server' || type === 'duplicate';
  });

  const saved = <D>({ successText, onSuccess }: SaveOptions<D> = {}) => ({
    onSuccess: (data: D) => {
      allowLeave();
      const stored = data as unknown as R;
      if (base !== undefined && stored !== undefined && stored !== null && typeof stored === 'object')
        startFrom(stored, false);
      else form.reset(form.getValues());
      if (successText !== false) showNotification({ color: 'green', message: successText ?? t('common.saved') });
      onSuccess?.(data);
    },
    onError: (error: unknown) => {
      setEditedSinceFailure(false);
      if (hasCode(error, 'STALE_UPDATE')) setConflict(error);
      else applyServerErrors(error, form.setError, fields, duplicateText);
    },
  });

  const answer = async (keep: boolean) => {
    const fresh = await reload?.();
    setConflict(null);
    if (fresh !== undefined) startFrom(fresh, keep);
  };

  return {
    form,
    base,
    err,
    saved,
    fieldErrorShown,
    editedSinceFailure,
    conflict,
    dismissConflict: () => setConflict(null),
    reloadStored: reload ? () => answer(false) : undefined,
    keepMine: reload && toValues ? () => answer(true) : undefined,
  };
}
