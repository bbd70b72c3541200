import { zodResolver } from '@hookform/resolvers/zod';
import { Fieldset, Group, NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { floorInputSchema, floorTypeSchema, type FloorDetail, type FloorInput } from '@portal/contract';
import type { ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormShell, LockedFields, OptionalNumberInput, useFormKit } from '@/components/form-page';
import { paths } from '@/config/paths';
import { useCreateFloor } from '../api/create-floor';
import { useUpdateFloor } from '../api/update-floor';
import { FloorNumberSelect } from './floor-number-select';

const FIELDS = ['name', 'type', 'index', 'resolution', 'originX', 'originY'] as const;

const valuesOf = (f: FloorDetail): FloorInput => ({
  name: f.name,
  type: f.type,
  index: f.index,
  resolution: f.resolution,
  originX: f.originX,
  originY: f.originY,
});

type FloorFormProps = {
  /** Without the right to change floors: the fields are shown locked. */
  readOnly?: boolean;
  /** Buttons at the start of the row (delete). */
  startActions?: ReactNode;
} & (
  | { buildingId: number; floor?: undefined; onReload?: undefined }
  | {
      buildingId?: undefined;
      /** The stored floor (edit). */
      floor: FloorDetail;
      /** Fetches the stored floor again (the conflict dialog's answers). */
      onReload: () => Promise<FloorDetail | undefined>;
    }
);

/** Floor fields validated with the contract schema, on the form kit: create (in a building) or edit. */
export function FloorForm({ buildingId, floor, onReload, readOnly, startActions }: FloorFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateFloor(buildingId ?? floor.buildingId);
  const update = useUpdateFloor(floor?.id ?? 0);
  const mutation = floor ? update : create;
  const form = useForm<FloorInput>({
    resolver: zodResolver(floorInputSchema),
    defaultValues: floor
      ? valuesOf(floor)
      : { name: '', type: 'office', index: 1, resolution: null, originX: null, originY: null },
  });
  const kit = useFormKit(form, { fields: FIELDS, record: floor, reload: onReload, toValues: valuesOf });
  const { err, base } = kit;

  const onSubmit = form.handleSubmit((body) => {
    if (base) update.mutate({ ...body, updatedAt: base.updatedAt }, kit.saved());
    else
      create.mutate(
        body,
        kit.saved<FloorDetail>({
          successText: t('floors.created'),
          onSuccess: (f) => void navigate(paths.building.floor.getHref(f.id)),
        }),
      );
  });

  return (
    <FormShell
      kit={kit}
      onSubmit={onSubmit}
      mutation={mutation}
      label={t('floors.editTitle')}
      submitTestId="floor-save"
      createCancelTo={paths.building.detail.getHref(buildingId ?? floor.buildingId, 'floors')}
      readOnly={readOnly}
      startActions={startActions}
      maw="none"
    >
      <LockedFields locked={readOnly}>
        <Stack>
          <TextInput
            label={t('floors.name')}
            required
            error={err('name')}
            {...form.register('name')}
            data-testid="floor-name"
          />
          <Group align="flex-start">
            <NativeSelect
              label={t('floors.type')}
              data={floorTypeSchema.options.map((v) => ({ value: v, label: t(`floors.types.${v}`) }))}
              error={err('type')}
              {...form.register('type')}
            />
            <Controller
              control={form.control}
              name="index"
              render={({ field }) => (
                <FloorNumberSelect
                  label={t('floors.number')}
                  description={t('floors.numberHint')}
                  value={field.value}
                  onChange={field.onChange}
                  error={err('index')}
                />
              )}
            />
          </Group>
          <Fieldset legend={t('floors.mapMeta')} variant="filled">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              {(['resolution', 'originX', 'originY'] as const).map((name) => (
                <Controller
                  key={name}
                  control={form.control}
                  name={name}
                  render={({ field }) => (
                    <OptionalNumberInput
                      label={t(`floors.${name}`)}
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      name={field.name}
                      error={err(name)}
                    />
                  )}
                />
              ))}
            </SimpleGrid>
          </Fieldset>
        </Stack>
      </LockedFields>
    </FormShell>
  );
}
