import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, NativeSelect, Paper, Stack, Text, TextInput } from '@mantine/core';
import { languageSchema, updateProfileBodySchema, type Profile, type UpdateProfileBody } from '@portal/contract';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/lib/api-client';
import { applyLanguage, useErrorText, useMessageText } from '@/lib/i18n';
import { useUpdateProfile } from '../api/update-profile';
import { showNotification } from '@/lib/notify';

interface ProfileFormProps {
  profile: Profile;
  onReload: () => void;
}

export function ProfileForm({ profile, onReload }: ProfileFormProps) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const errorText = useErrorText();
  const update = useUpdateProfile();
  const form = useForm<UpdateProfileBody>({
    resolver: zodResolver(updateProfileBodySchema),
    defaultValues: {
      lastName: profile.lastName,
      firstName: profile.firstName,
      email: profile.email,
      phone: profile.phone,
      language: profile.language,
      authMode: profile.authMode,
      updatedAt: profile.updatedAt,
    },
  });
  const { errors } = form.formState;
  const stale = isApiError(update.error) && update.error.code === 'STALE_UPDATE';

  const onSubmit = form.handleSubmit((body) =>
    update.mutate(body, {
      onSuccess: (saved) => {
        if (saved.language) void applyLanguage(saved.language);
        showNotification({ color: 'green', message: t('common.saved') });
      },
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('my.profile.title')}>
      <Stack>
        <Paper withBorder p="md">
          <Stack gap={4}>
            <Text size="sm">
              {t('my.profile.loginId')}: {profile.loginId}
            </Text>
            <Text size="sm">
              {t('my.profile.organization')}: {profile.organizationName}
            </Text>
            <Text size="sm">
              {t('my.profile.building')}: {profile.buildingName ?? t('common.none')}
            </Text>
            <Text size="sm" c="dimmed">
              {t('my.profile.usage', { logins: profile.usage.logins, sessions: profile.usage.activeSessions })}
            </Text>
          </Stack>
        </Paper>
        {stale && (
          <Alert color="orange" role="alert" data-testid="profile-stale">
            <Group justify="space-between">
              <span>{t('my.profile.stale')}</span>
              <Button size="xs" variant="light" onClick={onReload}>
                {t('common.reload')}
              </Button>
            </Group>
          </Alert>
        )}
        {update.isError && !stale && (
          <Alert color="red" role="alert">
            {errorText(update.error)}
          </Alert>
        )}
        <Group grow align="flex-start">
          <TextInput
            label={t('my.profile.lastName')}
            autoComplete="family-name"
            error={messageText(errors.lastName?.message)}
            {...form.register('lastName')}
          />
          <TextInput
            label={t('my.profile.firstName')}
            autoComplete="given-name"
            error={messageText(errors.firstName?.message)}
            {...form.register('firstName')}
          />
        </Group>
        <TextInput
          label={t('my.profile.email')}
          type="email"
          autoComplete="email"
          error={messageText(errors.email?.message)}
          {...form.register('email')}
        />
        <TextInput
          label={t('my.profile.phone')}
          type="tel"
          autoComplete="tel"
          error={messageText(errors.phone?.message)}
          {...form.register('phone')}
        />
        <Controller
          control={form.control}
          name="language"
          render={({ field }) => (
            <NativeSelect
              label={t('my.profile.language')}
              value={field.value ?? ''}
              onChange={(e) => {
                const parsed = languageSchema.safeParse(e.currentTarget.value);
                field.onChange(parsed.success ? parsed.data : null);
              }}
              data={[
                { value: '', label: t('language.browserDefault') },
                { value: 'ja', label: t('language.ja') },
                { value: 'en', label: t('language.en') },
              ]}
            />
          )}
        />
        <NativeSelect
          label={t('my.profile.authMode')}
          data={(['none', 'email', 'sms'] as const).map((m) => ({ value: m, label: t(`my.profile.authModes.${m}`) }))}
          error={messageText(errors.authMode?.message)}
          {...form.register('authMode')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={update.isPending} data-testid="profile-save">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
