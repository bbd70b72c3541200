import type { RobotAction } from '@portal/contract';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/lib/api-client';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useRobotAction } from '../api/send-robot-action';

/**
 * Sends robot actions and says how it went: a short confirmation (when given), the spec's recording
 * notices (already started, not started) and the other refusals in the user's language.
 */
export function useRobotActions(robotId: number) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const mutation = useRobotAction(robotId);
  const { mutateAsync } = mutation;

  /** Resolves to null when the robot got the action, else to the refusal's error code. */
  const run = useCallback(
    async (action: RobotAction, success?: string): Promise<string | null> => {
      try {
        await mutateAsync(action);
        if (success) showNotification({ color: 'teal', message: success, autoClose: 2500 });
        return null;
      } catch (e) {
        const notice =
          isApiError(e) && e.code === 'RECORDING_ALREADY_STARTED'
            ? t('teleopScreen.actions.alreadyStarted')
            : isApiError(e) && e.code === 'RECORDING_NOT_STARTED'
              ? t('teleopScreen.actions.notStarted')
              : null;
        showNotification({ color: notice ? 'orange' : 'red', message: notice ?? errorText(e) });
        return isApiError(e) ? e.code : 'INTERNAL';
      }
    },
    [mutateAsync, t, errorText],
  );

  return { run, pending: mutation.isPending ? (mutation.variables?.type ?? null) : null };
}
