import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Group, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useErrorText, useMessageText } from '@/lib/i18n';
import {
  registrationRequestSchema,
  useCreateRegistrationRequest,
  type RegistrationRequest,
} from '../api/create-registration-request';

export function RegisterForm() {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const errorText = useErrorText();
  const create = useCreateRegistrationRequest();
  const form = useForm<z.input<typeof registrationRequestSchema>, unknown, RegistrationRequest>({
    resolver: zodResolver(registrationRequestSchema),
    defaultValues: { lastName: '', firstName: '', email: '', organizationName: '', message: '' },
  });
  const { errors } = form.formState;
  const backLink = (
    <Anchor component={Link} to={paths.auth.login.getHref()} size="sm">
      {t('common.backToLogin')}
    </Anchor>
  );

  if (create.isSuccess) {
    return (
      <Stack>
        <Title order={1} size="h2">
          {t('register.title')}
        </Title>
        <Alert color="green" role="status" data-testid="register-done">
          {t('register.done')}
        </Alert>
        {backLink}
      </Stack>
    );
  }

  return (
    <form onSubmit={form.handleSubmit((body) => create.mutate(body))} noValidate aria-labelledby="register-title">
      <Stack>
        <Title order={1} size="h2" id="register-title">
          {t('register.title')}
        </Title>
        <Text size="sm">{t('register.intro')}</Text>
        {create.isError && (
          <Alert color="red" role="alert">
            {errorText(create.error)}
          </Alert>
        )}
        <Group grow align="flex-start">
          <TextInput
            label={t('register.lastName')}
            autoComplete="family-name"
            error={messageText(errors.lastName?.message)}
            {...form.register('lastName')}
          />
          <TextInput
            label={t('register.firstName')}
            autoComplete="given-name"
            error={messageText(errors.firstName?.message)}
            {...form.register('firstName')}
          />
        </Group>
        <TextInput
          label={t('register.email')}
          type="email"
          autoComplete="email"
          error={messageText(errors.email?.message)}
          {...form.register('email')}
        />
        <TextInput
          label={t('register.organizationName')}
          autoComplete="organization"
          error={messageText(errors.organizationName?.message)}
          {...form.register('organizationName')}
        />
        <Textarea
          label={t('register.message')}
          autosize
          minRows={3}
          error={messageText(errors.message?.message)}
          {...form.register('message')}
        />
        <Button type="submit" loading={create.isPending}>
          {t('register.submit')}
        </Button>
        {backLink}
      </Stack>
    </form>
  );
}
