import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, PasswordInput, Stack, Title } from '@mantine/core';
import { changePasswordBodySchema, type ChangePasswordBody } from '@portal/contract';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText, useMessageText } from '@/lib/i18n';
import { useChangePassword } from '../api/change-password';
import { PasswordChecklist } from '@/components/password-checklist';

export function ChangePasswordForm() {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const errorText = useErrorText();
  const change = useChangePassword();
  const form = useForm<ChangePasswordBody>({
    resolver: zodResolver(changePasswordBodySchema),
    defaultValues: { oldPassword: '', newPassword: '', confirmPassword: '' },
  });
  const newPassword = useWatch({ control: form.control, name: 'newPassword' });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((body) =>
    change.mutate(body, { onSuccess: () => form.reset({ oldPassword: '', newPassword: '', confirmPassword: '' }) }),
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="chpwd-title">
      <Stack maw={480}>
        <Title order={1} size="h2" id="chpwd-title">
          {t('my.chpwd.title')}
        </Title>
        {change.isSuccess && (
          <Alert color="green" role="status" data-testid="chpwd-done">
            {t('my.chpwd.done')}
          </Alert>
        )}
        {change.isError && (
          <Alert color="red" role="alert">
            {errorText(change.error)}
          </Alert>
        )}
        <PasswordInput
          label={t('my.chpwd.oldPassword')}
          autoComplete="current-password"
          error={messageText(errors.oldPassword?.message)}
          {...form.register('oldPassword')}
        />
        <PasswordInput
          label={t('my.chpwd.newPassword')}
          autoComplete="new-password"
          error={messageText(errors.newPassword?.message)}
          {...form.register('newPassword')}
        />
        <PasswordChecklist password={newPassword} />
        <PasswordInput
          label={t('my.chpwd.confirmPassword')}
          autoComplete="new-password"
          error={messageText(errors.confirmPassword?.message)}
          {...form.register('confirmPassword')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={change.isPending} data-testid="chpwd-submit">
            {t('my.chpwd.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
