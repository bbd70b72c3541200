import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { buildingInputSchema, isSystemAdmin, type Building } from '@portal/contract';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { SaveErrorAlert } from '@/components/save-error-alert';
import { useMessageText } from '@/lib/i18n';
import { applyServerErrors } from '@/lib/server-errors';
import { useOrganizationOptions } from '../api/get-organizations';
import { NumberField } from './number-field';

/** The contract's fields; `updatedAt` is present when editing (the version the edit is based on). */
const formSchema = buildingInputSchema.extend({ updatedAt: z.string().optional() });
export type BuildingFormValues = z.infer<typeof formSchema>;

export const buildingFormValues = (b: Building): BuildingFormValues => ({
  name: b.name,
  prefecture: b.prefecture ?? '',
  city: b.city ?? '',
  address: b.address ?? '',
  postalCode: b.postalCode ?? '',
  latitude: b.latitude,
  longitude: b.longitude,
  organizationId: b.organizationId,
  status: b.status,
  updatedAt: b.updatedAt,
});

interface BuildingFormProps {
  defaultValues: BuildingFormValues;
  sessionType: number;
  readOnly?: boolean;
  saving: boolean;
  error: unknown;
  onSubmit: (values: BuildingFormValues) => Promise<BuildingFormValues | void>;
  onReload?: () => void;
  extraActions?: React.ReactNode;
}

/** Building fields validated with the contract schema; a stale save keeps what was typed. */
export function BuildingForm({
  defaultValues,
  sessionType,
  readOnly,
  saving,
  error,
  onSubmit,
  onReload,
  extraActions,
}: BuildingFormProps) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const sysadmin = isSystemAdmin(sessionType);
  const organizations = useOrganizationOptions(sysadmin);
  const form = useForm<BuildingFormValues>({ resolver: zodResolver(formSchema), defaultValues });
  const { errors } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await onSubmit(values);
      if (saved) form.reset(saved);
    } catch (e) {
      applyServerErrors(e, form.setError, Object.keys(defaultValues) as (keyof BuildingFormValues)[]);
    }
  });

  const orgData = (organizations.data ?? [])
    .filter((o): o is typeof o & { id: number } => typeof o.id === 'number')
    .map((o) => ({ value: String(o.id), label: o.name ?? String(o.id) }));
  if (!orgData.some((o) => o.value === String(defaultValues.organizationId)))
    orgData.unshift({ value: String(defaultValues.organizationId), label: `#${defaultValues.organizationId}` });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={t('buildings.tabs.details')}>
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack>
          <SaveErrorAlert
            error={error}
            onReload={onReload}
            staleText={t('buildings.form.stale')}
            staleTestId="building-stale"
          />
          <TextInput
            label={t('buildings.form.name')}
            required
            maxLength={80}
            error={messageText(errors.name?.message)}
            {...form.register('name')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('buildings.form.postalCode')}
              description={t('buildings.form.postalCodeHint')}
              autoComplete="postal-code"
              error={messageText(errors.postalCode?.message)}
              {...form.register('postalCode')}
            />
            <TextInput
              label={t('buildings.form.prefecture')}
              autoComplete="address-level1"
              error={messageText(errors.prefecture?.message)}
              {...form.register('prefecture')}
            />
            <TextInput
              label={t('buildings.form.city')}
              autoComplete="address-level2"
              error={messageText(errors.city?.message)}
              {...form.register('city')}
            />
            <TextInput
              label={t('buildings.form.address')}
              autoComplete="address-line1"
              error={messageText(errors.address?.message)}
              {...form.register('address')}
            />
            <Controller
              control={form.control}
              name="latitude"
              render={({ field }) => (
                <NumberField
                  label={t('buildings.form.latitude')}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  name={field.name}
                  error={messageText(errors.latitude?.message)}
                />
              )}
            />
            <Controller
              control={form.control}
              name="longitude"
              render={({ field }) => (
                <NumberField
                  label={t('buildings.form.longitude')}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  name={field.name}
                  error={messageText(errors.longitude?.message)}
                />
              )}
            />
            {sysadmin && (
              <Controller
                control={form.control}
                name="organizationId"
                render={({ field }) => (
                  <NativeSelect
                    label={t('buildings.form.organization')}
                    value={String(field.value)}
                    onChange={(e) => field.onChange(Number(e.currentTarget.value))}
                    data={orgData}
                    error={messageText(errors.organizationId?.message)}
                  />
                )}
              />
            )}
            <Controller
              control={form.control}
              name="status"
              render={({ field }) => (
                <NativeSelect
                  label={t('buildings.form.status')}
                  value={String(field.value)}
                  onChange={(e) => field.onChange(e.currentTarget.value === '0' ? 0 : 1)}
                  data={[
                    { value: '1', label: t('buildings.statuses.1') },
                    { value: '0', label: t('buildings.statuses.0') },
                  ]}
                />
              )}
            />
          </SimpleGrid>
          {!readOnly && (
            <Group justify="space-between">
              <Group>{extraActions}</Group>
              <Button type="submit" loading={saving} data-testid="building-save">
                {t('common.save')}
              </Button>
            </Group>
          )}
        </Stack>
      </fieldset>
    </form>
  );
}
