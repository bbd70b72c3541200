import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { isErrorCode } from '@/lib/api-client';

const teleopCodes = ['FORBIDDEN', 'NOT_FOUND', 'ROBOT_OFFLINE', 'TELEOP_LOCKED'] as const;
type TeleopCode = (typeof teleopCodes)[number];
const isTeleopCode = (c: string): c is TeleopCode => (teleopCodes as readonly string[]).includes(c);

/** A `teleop.error` in the user's language: its own wording, the API's error text, else the server's message. */
export function useTeleopErrorText(): (code: string, message: string) => string {
  const { t } = useTranslation();
  return useCallback(
    (code, message) =>
      isTeleopCode(code)
        ? t(`teleopScreen.session.joinErrors.${code}`)
        : isErrorCode(code)
          ? t(`errors.${code}`)
          : message || code,
    [t],
  );
}
