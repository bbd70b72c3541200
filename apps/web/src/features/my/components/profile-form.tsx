import { zodResolver } from '@hookform/resolvers/zod';
import { Group, NativeSelect, Paper, Stack, Text, TextInput } from '@mantine/core';
import { languageSchema, updateProfileBodySchema, type Profile, type UpdateProfileBody } from '@portal/contract';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormShell, useFormKit } from '@/components/form-page';
import { applyLanguage, i18n } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useUpdateProfile } from '../api/update-profile';

interface ProfileFormProps {
  profile: Profile;
  /** Fetches the stored profile again (the conflict dialog's answers). */
  onReload: () => Promise<Profile | undefined>;
}

const FIELDS = ['lastName', 'firstName', 'email', 'phone', 'language', 'authMode'] as const;

const valuesOf = (profile: Profile): UpdateProfileBody => ({
  lastName: profile.lastName,
  firstName: profile.firstName,
  email: profile.email,
  phone: profile.phone,
  language: profile.language,
  authMode: profile.authMode,
  updatedAt: profile.updatedAt,
});

export function ProfileForm({ profile, onReload }: ProfileFormProps) {
  const { t } = useTranslation();
  const update = useUpdateProfile();
  const form = useForm<UpdateProfileBody>({
    resolver: zodResolver(updateProfileBodySchema),
    defaultValues: valuesOf(profile),
  });
  const kit = useFormKit(form, { fields: FIELDS, record: profile, reload: onReload, toValues: valuesOf });
  const { err } = kit;

  const onSubmit = form.handleSubmit((body) =>
    update.mutate(
      { ...body, updatedAt: kit.base?.updatedAt ?? profile.updatedAt },
      kit.saved<Profile>({
        // The toast speaks the language just chosen: it waits for that language's texts.
        successText: false,
        onSuccess: (saved) => {
          void (async () => {
            if (saved.language) await applyLanguage(saved.language);
            showNotification({ color: 'green', message: i18n.t('common.saved') });
          })();
        },
      }),
    ),
  );

  return (
    <FormShell
      kit={kit}
      onSubmit={onSubmit}
      mutation={update}
      label={t('my.profile.title')}
      submitTestId="profile-save"
    >
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
      <Group grow align="flex-start">
        <TextInput
          label={t('my.profile.lastName')}
          autoComplete="family-name"
          error={err('lastName')}
          {...form.register('lastName')}
        />
        <TextInput
          label={t('my.profile.firstName')}
          autoComplete="given-name"
          error={err('firstName')}
          {...form.register('firstName')}
        />
      </Group>
      <TextInput
        label={t('my.profile.email')}
        type="email"
        autoComplete="email"
        error={err('email')}
        {...form.register('email')}
      />
      <TextInput
        label={t('my.profile.phone')}
        type="tel"
        autoComplete="tel"
        error={err('phone')}
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
            error={err('language')}
          />
        )}
      />
      <NativeSelect
        label={t('my.profile.authMode')}
        data={(['none', 'email', 'sms'] as const).map((m) => ({ value: m, label: t(`my.profile.authModes.${m}`) }))}
        error={err('authMode')}
        {...form.register('authMode')}
      />
    </FormShell>
  );
}
