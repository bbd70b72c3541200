import { zodResolver } from '@hookform/resolvers/zod';
import { NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import {
  buildingInputSchema,
  DEFAULT_TIME_ZONE,
  isSystemAdmin,
  type Building,
  type BuildingInput,
} from '@portal/contract';
import type { ReactNode } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormShell, LockedFields, OptionalNumberInput, useFormKit } from '@/components/form-page';
import { PrefectureSelect, TimeZoneSelect } from '@/components/place-fields';
import { paths } from '@/config/paths';
import { useCreateBuilding } from '../api/create-building';
import { useOrganizationOptions } from '../api/get-organizations';
import { useUpdateBuilding } from '../api/update-building';

const FIELDS = [
  'name',
  'prefecture',
  'city',
  'address',
  'postalCode',
  'latitude',
  'longitude',
  'organizationId',
  'status',
  'timeZone',
] as const;

const valuesOf = (b: Building): BuildingInput => ({
  name: b.name,
  prefecture: b.prefecture ?? '',
  city: b.city ?? '',
  address: b.address ?? '',
  postalCode: b.postalCode ?? '',
  latitude: b.latitude,
  longitude: b.longitude,
  organizationId: b.organizationId,
  status: b.status,
  timeZone: b.timeZone,
});

interface BuildingFormProps {
  /** The stored building (edit), or none (create). */
  building?: Building;
  sessionType: number;
  /** Create: the organization a new building belongs to unless a system administrator picks another. */
  organizationId?: number;
  /** Without the right to change buildings: the fields are shown locked. */
  readOnly?: boolean;
  /** Edit: fetches the stored building again (the conflict dialog's answers). */
  onReload?: () => Promise<Building | undefined>;
  /** Buttons at the start of the row (delete). */
  startActions?: ReactNode;
}

/** Building fields validated with the contract schema, on the form kit. */
export function BuildingForm({
  building,
  sessionType,
  organizationId = 0,
  readOnly,
  onReload,
  startActions,
}: BuildingFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const sysadmin = isSystemAdmin(sessionType);
  const organizations = useOrganizationOptions(sysadmin);
  const create = useCreateBuilding();
  const update = useUpdateBuilding();
  const mutation = building ? update : create;
  const form = useForm<BuildingInput>({
    resolver: zodResolver(buildingInputSchema),
    defaultValues: building
      ? valuesOf(building)
      : {
          name: '',
          prefecture: '',
          city: '',
          address: '',
          postalCode: '',
          latitude: null,
          longitude: null,
          organizationId,
          status: 1,
          timeZone: DEFAULT_TIME_ZONE,
        },
  });
  const kit = useFormKit(form, { fields: FIELDS, record: building, reload: onReload, toValues: valuesOf });
  const { err, base } = kit;
  const chosenOrganization = useWatch({ control: form.control, name: 'organizationId' });

  const onSubmit = form.handleSubmit((body) => {
    if (base) update.mutate({ id: base.id, body: { ...body, updatedAt: base.updatedAt } }, kit.saved());
    else
      create.mutate(
        body,
        kit.saved<Building>({
          successText: t('buildings.form.created'),
          onSuccess: (b) => void navigate(paths.building.detail.getHref(b.id)),
        }),
      );
  });

  const orgData = (organizations.data ?? [])
    .filter((o): o is typeof o & { id: number } => typeof o.id === 'number')
    .map((o) => ({ value: String(o.id), label: o.name ?? String(o.id) }));
  if (!orgData.some((o) => o.value === String(chosenOrganization)))
    orgData.unshift({ value: String(chosenOrganization), label: `#${chosenOrganization}` });

  return (
    <FormShell
      kit={kit}
      onSubmit={onSubmit}
      mutation={mutation}
      label={t('buildings.tabs.details')}
      submitTestId="building-save"
      cancelTo={building ? undefined : paths.building.list.getHref()}
      readOnly={readOnly}
      startActions={startActions}
      maw="none"
    >
      <LockedFields locked={readOnly}>
        <Stack>
          <TextInput
            label={t('buildings.form.name')}
            required
            maxLength={80}
            error={err('name')}
            {...form.register('name')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('buildings.form.postalCode')}
              description={t('buildings.form.postalCodeHint')}
              autoComplete="postal-code"
              error={err('postalCode')}
              {...form.register('postalCode')}
            />
            <Controller
              control={form.control}
              name="prefecture"
              render={({ field }) => (
                <PrefectureSelect
                  label={t('buildings.form.prefecture')}
                  name={field.name}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={err('prefecture')}
                  data-testid="building-prefecture"
                />
              )}
            />
            <TextInput
              label={t('buildings.form.city')}
              autoComplete="address-level2"
              error={err('city')}
              {...form.register('city')}
            />
            <TextInput
              label={t('buildings.form.address')}
              autoComplete="address-line1"
              error={err('address')}
              {...form.register('address')}
            />
            {(['latitude', 'longitude'] as const).map((name) => (
              <Controller
                key={name}
                control={form.control}
                name={name}
                render={({ field }) => (
                  <OptionalNumberInput
                    label={t(`buildings.form.${name}`)}
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    name={field.name}
                    error={err(name)}
                  />
                )}
              />
            ))}
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
                    error={err('organizationId')}
                  />
                )}
              />
            )}
            <Controller
              control={form.control}
              name="timeZone"
              render={({ field }) => (
                <TimeZoneSelect
                  name={field.name}
                  value={field.value ?? ''}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  description={t('places.timeZoneHint')}
                  error={err('timeZone')}
                  data-testid="building-time-zone"
                />
              )}
            />
            <Controller
              control={form.control}
              name="status"
              render={({ field }) => (
                <NativeSelect
                  label={t('buildings.form.status')}
                  value={String(field.value)}
                  onChange={(e) => field.onChange(e.currentTarget.value === '0' ? 0 : 1)}
                  error={err('status')}
                  data={[
                    { value: '1', label: t('buildings.statuses.1') },
                    { value: '0', label: t('buildings.statuses.0') },
                  ]}
                />
              )}
            />
          </SimpleGrid>
        </Stack>
      </LockedFields>
    </FormShell>
  );
}
