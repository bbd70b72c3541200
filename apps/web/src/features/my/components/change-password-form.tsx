import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, PasswordInput, Stack, Title } from '@mantine/core';
import { changePasswordBodySchema, type ChangePasswordBody } from '@portal/contract';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormShell, useFormKit } from '@/components/form-page';
import { PasswordChecklist } from '@/components/password-checklist';
import { useChangePassword } from '../api/change-password';

const FIELDS = ['oldPassword', 'newPassword', 'confirmPassword'] as const;
const EMPTY: ChangePasswordBody = { oldPassword: '', newPassword: '', confirmPassword: '' };

export function ChangePasswordForm() {
  const { t } = useTranslation();
  const change = useChangePassword();
  const form = useForm<ChangePasswordBody>({ resolver: zodResolver(changePasswordBodySchema), defaultValues: EMPTY });
  const kit = useFormKit(form, { fields: FIELDS });
  const newPassword = useWatch({ control: form.control, name: 'newPassword' });
  const { err } = kit;

  // Done: the fields empty again and the note below the title (no toast).
  const onSubmit = form.handleSubmit((body) =>
    change.mutate(body, kit.saved({ successText: false, onSuccess: () => form.reset(EMPTY) })),
  );

  return (
    <Stack maw={480}>
      <Title order={1} size="h2" id="chpwd-title">
        {t('my.chpwd.title')}
      </Title>
      <FormShell
        kit={kit}
        onSubmit={onSubmit}
        mutation={change}
        label={t('my.chpwd.title')}
        submitLabel={t('my.chpwd.submit')}
        submitTestId="chpwd-submit"
        maw={480}
      >
        {change.isSuccess && (
          <Alert color="green" role="status" data-testid="chpwd-done">
            {t('my.chpwd.done')}
          </Alert>
        )}
        <PasswordInput
          label={t('my.chpwd.oldPassword')}
          autoComplete="current-password"
          error={err('oldPassword')}
          {...form.register('oldPassword')}
        />
        <PasswordInput
          label={t('my.chpwd.newPassword')}
          autoComplete="new-password"
          error={err('newPassword')}
          {...form.register('newPassword')}
        />
        <PasswordChecklist password={newPassword} />
        <PasswordInput
          label={t('my.chpwd.confirmPassword')}
          autoComplete="new-password"
          error={err('confirmPassword')}
          {...form.register('confirmPassword')}
        />
      </FormShell>
    </Stack>
  );
}
