import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import { useErrorText } from '@/lib/i18n';
import { hasCode } from '@/lib/server-errors';
import { StaleAlert } from './stale-alert';

interface SaveErrorAlertProps {
  error: unknown;
  onReload?: () => void;
  /** The screen's sentence for a stale update (409 STALE_UPDATE). */
  staleText?: ReactNode;
  staleTestId?: string;
}

/** Why a save failed: the stale-update alert with its reload button, or the error's text. */
export function SaveErrorAlert({ error, onReload, staleText, staleTestId }: SaveErrorAlertProps) {
  const errorText = useErrorText();
  if (error === null || error === undefined) return null;
  if (hasCode(error, 'STALE_UPDATE'))
    return (
      <StaleAlert onReload={onReload} testId={staleTestId}>
        {staleText}
      </StaleAlert>
    );
  return (
    <Alert color="red" role="alert">
      {errorText(error)}
    </Alert>
  );
}
