import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, NativeSelect, NumberInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import {
  organizationInputSchema,
  organizationTypeSchema,
  recordStatusSchema,
  type Organization,
  type OrganizationInput,
} from '@portal/contract';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { useMessageText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useCreateOrganization } from '../api/create-organization';
import { useUpdateOrganization } from '../api/update-organization';
import { applyServerErrors, fieldErrorText } from '@/lib/server-errors';
import { SaveErrorAlert } from '@/components/save-error-alert';

const FIELDS = ['name', 'type', 'level', 'prefecture', 'city', 'address', 'postalCode', 'status', 'labOption'] as const;

const emptyOrganization: OrganizationInput = {
  name: '',
  type: 0,
  level: 0,
  prefecture: '',
  city: '',
  address: '',
  postalCode: '',
  status: 1,
  labOption: false,
};

const toInput = (o: Organization): OrganizationInput => ({
  name: o.name,
  type: o.type,
  level: o.level,
  prefecture: o.prefecture ?? '',
  city: o.city ?? '',
  address: o.address ?? '',
  postalCode: o.postalCode ?? '',
  status: o.status,
  labOption: o.labOption,
});

interface OrganizationFormProps {
  /** The stored organization (edit), or none (create). */
  organization?: Organization;
  /** System administrators may set type, level, status and the Lab option. */
  systemAdmin: boolean;
  onReload?: () => void;
}

export function OrganizationForm({ organization, systemAdmin, onReload }: OrganizationFormProps) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const navigate = useNavigate();
  const create = useCreateOrganization();
  const update = useUpdateOrganization();
  const mutation = organization ? update : create;
  const form = useForm<OrganizationInput>({
    resolver: zodResolver(organizationInputSchema),
    defaultValues: organization ? toInput(organization) : emptyOrganization,
  });
  const { errors } = form.formState;
  const err = (name: (typeof FIELDS)[number]) => fieldErrorText(errors[name], messageText);
  const lockedField = !systemAdmin;

  const onError = (error: unknown) => {
    applyServerErrors(error, form.setError, FIELDS, t('people.org.duplicateName'));
  };
  const onSubmit = form.handleSubmit((body) => {
    if (organization) {
      update.mutate(
        { id: organization.id, body: { ...body, updatedAt: organization.updatedAt } },
        { onSuccess: () => showNotification({ color: 'green', message: t('common.saved') }), onError },
      );
    } else {
      create.mutate(body, {
        onSuccess: (org) => {
          showNotification({ color: 'green', message: t('people.created') });
          void navigate(paths.organization.detail.getHref(org.id));
        },
        onError,
      });
    }
  });

  // A field error explains itself; other failures get one alert.
  const fieldErrorShown = FIELDS.some((f) => errors[f]?.type === 'duplicate' || errors[f]?.type === 'server');
  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('people.org.name')} data-testid="organization-form">
      <Stack maw={720}>
        {/* A field error explains itself; any other failure gets one alert. */}
        <SaveErrorAlert error={fieldErrorShown ? null : mutation.error} onReload={onReload} />
        <TextInput
          label={t('people.org.name')}
          required
          maxLength={60}
          error={err('name')}
          data-testid="org-name"
          {...form.register('name')}
        />
        {lockedField && (
          <Text size="sm" c="dimmed">
            {t('people.org.systemOnly')}
          </Text>
        )}
        <Group grow align="flex-start">
          <Controller
            control={form.control}
            name="type"
            render={({ field }) => (
              <NativeSelect
                label={t('people.org.type')}
                disabled={lockedField}
                value={String(field.value)}
                onChange={(e) => {
                  const v = organizationTypeSchema.safeParse(Number(e.currentTarget.value));
                  if (v.success) field.onChange(v.data);
                }}
                onBlur={field.onBlur}
                ref={field.ref}
                error={err('type')}
                data={organizationTypeSchema.options.map((o) => ({
                  value: String(o.value),
                  label: t(`people.org.types.${o.value}`),
                }))}
                data-testid="org-type"
              />
            )}
          />
          <Controller
            control={form.control}
            name="level"
            render={({ field }) => (
              <NumberInput
                label={t('people.org.level')}
                disabled={lockedField}
                min={0}
                max={99}
                allowDecimal={false}
                value={Number.isFinite(field.value) ? field.value : ''}
                onChange={(v) => field.onChange(typeof v === 'number' ? v : v === '' ? Number.NaN : Number(v))}
                onBlur={field.onBlur}
                ref={field.ref}
                error={err('level')}
              />
            )}
          />
          <Controller
            control={form.control}
            name="status"
            render={({ field }) => (
              <NativeSelect
                label={t('people.status')}
                disabled={lockedField}
                value={String(field.value)}
                onChange={(e) => {
                  const v = recordStatusSchema.safeParse(Number(e.currentTarget.value));
                  if (v.success) field.onChange(v.data);
                }}
                onBlur={field.onBlur}
                ref={field.ref}
                error={err('status')}
                data={[
                  { value: '1', label: t('people.statuses.1') },
                  { value: '0', label: t('people.statuses.0') },
                ]}
              />
            )}
          />
        </Group>
        <Group grow align="flex-start">
          <TextInput
            label={t('people.org.postalCode')}
            placeholder={t('people.org.postalCodePlaceholder')}
            autoComplete="postal-code"
            inputMode="numeric"
            error={err('postalCode')}
            data-testid="org-postal-code"
            {...form.register('postalCode')}
          />
          <TextInput
            label={t('people.org.prefecture')}
            autoComplete="address-level1"
            error={err('prefecture')}
            {...form.register('prefecture')}
          />
          <TextInput
            label={t('people.org.city')}
            autoComplete="address-level2"
            error={err('city')}
            {...form.register('city')}
          />
        </Group>
        <TextInput
          label={t('people.org.address')}
          autoComplete="street-address"
          error={err('address')}
          {...form.register('address')}
        />
        <Controller
          control={form.control}
          name="labOption"
          render={({ field }) => (
            <Switch
              label={t('people.org.labOption')}
              description={t('people.org.labOptionHint')}
              disabled={lockedField}
              checked={field.value}
              onChange={(e) => field.onChange(e.currentTarget.checked)}
              onBlur={field.onBlur}
              ref={field.ref}
              error={err('labOption')}
            />
          )}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={mutation.isPending} data-testid="organization-save">
            {organization ? t('common.save') : t('people.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
