import { zodResolver } from '@hookform/resolvers/zod';
import { Group, NativeSelect, NumberInput, Switch, Text, TextInput } from '@mantine/core';
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
import { PrefectureSelect } from '@/components/place-fields';
import { FormShell, useFormKit } from '@/components/form-page';
import { paths } from '@/config/paths';
import { useCreateOrganization } from '../api/create-organization';
import { useUpdateOrganization } from '../api/update-organization';

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
  /** Edit: fetches the stored organization again (the conflict dialog's answers). */
  onReload?: () => Promise<Organization | undefined>;
}

export function OrganizationForm({ organization, systemAdmin, onReload }: OrganizationFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateOrganization();
  const update = useUpdateOrganization();
  const mutation = organization ? update : create;
  const form = useForm<OrganizationInput>({
    resolver: zodResolver(organizationInputSchema),
    defaultValues: organization ? toInput(organization) : emptyOrganization,
  });
  const kit = useFormKit(form, {
    fields: FIELDS,
    duplicateText: t('people.org.duplicateName'),
    record: organization,
    reload: onReload,
    toValues: toInput,
  });
  const { err, base } = kit;
  const lockedField = !systemAdmin;

  const onSubmit = form.handleSubmit((body) => {
    if (base) {
      update.mutate({ id: base.id, body: { ...body, updatedAt: base.updatedAt } }, kit.saved());
    } else {
      create.mutate(
        body,
        kit.saved<Organization>({
          successText: t('people.created'),
          onSuccess: (org) => void navigate(paths.organization.detail.getHref(org.id)),
        }),
      );
    }
  });

  return (
    <FormShell
      kit={kit}
      onSubmit={onSubmit}
      mutation={mutation}
      label={t('people.org.name')}
      testId="organization-form"
      submitTestId="organization-save"
      submitLabel={organization ? t('common.save') : t('people.create')}
      cancelTo={organization ? undefined : paths.organization.list.getHref()}
    >
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
        <Controller
          control={form.control}
          name="prefecture"
          render={({ field }) => (
            <PrefectureSelect
              label={t('people.org.prefecture')}
              name={field.name}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={err('prefecture')}
              data-testid="org-prefecture"
            />
          )}
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
    </FormShell>
  );
}
