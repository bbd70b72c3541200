import { ChangePasswordForm } from '@/features/my/components/change-password-form';

export function Component() {
  return <ChangePasswordForm />;
}
