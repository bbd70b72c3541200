import { useTranslation } from 'react-i18next';
import { useLeaveQuestion } from '@/lib/use-leave-guard';
import { ConfirmDialog } from '../confirm-dialog';

/** The question of {@link useLeaveGuard}: leave the page and lose the changes, or stay. Mounted once. */
export function LeaveGuardDialog() {
  const { t } = useTranslation();
  const question = useLeaveQuestion();
  return (
    <ConfirmDialog
      opened={question !== null}
      title={t('common.leaveGuard.title')}
      confirmLabel={t('common.leaveGuard.leave')}
      cancelLabel={t('common.leaveGuard.stay')}
      confirmTestId="leave-guard-leave"
      onConfirm={() => question?.leave()}
      onClose={() => question?.stay()}
    >
      {t('common.leaveGuard.body')}
    </ConfirmDialog>
  );
}
