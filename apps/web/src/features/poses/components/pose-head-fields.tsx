import { NativeSelect, SimpleGrid, TextInput } from '@mantine/core';
import { ARM_MODELS, ARM_TYPES, type ArmModel, type ArmTypeCode } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import {
  useController,
  useWatch,
  type Control,
  type FieldValues,
  type UseFormRegister,
  type UseFormReturn,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { buildingFilterOptions } from '@/components/building-filter';

/** The fields a pose definition and a pose network start with. */
export interface PoseHead {
  name: string;
  buildingId: number | null;
  armModel: ArmModel;
  armType: ArmTypeCode;
}

interface PoseHeadFieldsProps<T extends FieldValues & PoseHead> {
  form: UseFormReturn<T>;
  /** `pose` or `network`: the fields' test ids (`pose-name`, `network-building`...). */
  testIdPrefix: string;
  nameMax: number;
  err: (field: keyof PoseHead) => ReactNode;
  /** Said under the arm model (what a change of model or type does to the rest of the form). */
  modelHint?: string;
  /** The arm model or type changed (the rest of the form follows the new shape). */
  onShape: (model: ArmModel, type: ArmTypeCode) => void;
}

/**
 * Name, building (or the whole organization), arm model and arm type: the head of the pose and the
 * pose network forms. A building the list does not hold (another scope) is still shown by its id.
 */
export function PoseHeadFields<T extends FieldValues & PoseHead>(props: PoseHeadFieldsProps<T>) {
  const { t } = useTranslation();
  const { testIdPrefix: id, err } = props;
  // The fields are the same in both forms; react-hook-form cannot type a path of a generic form.
  const control = props.form.control as unknown as Control<PoseHead>;
  const register = props.form.register as unknown as UseFormRegister<PoseHead>;
  const building = useController({ control, name: 'buildingId' });
  const model = useController({ control, name: 'armModel' });
  const type = useController({ control, name: 'armType' });
  const armModel = (useWatch({ control, name: 'armModel' }) ?? 100) as ArmModel;
  const armType = (useWatch({ control, name: 'armType' }) ?? 1) as ArmTypeCode;
  const buildings = useQuery(buildingFilterOptions());
  const buildingId = building.field.value;
  const buildingData = [
    { value: '', label: t('poseCommon.wholeOrganization') },
    ...(buildings.data ?? [])
      .filter((b): b is typeof b & { id: number } => typeof b.id === 'number')
      .map((b) => ({ value: String(b.id), label: b.name ?? `#${b.id}` })),
  ];
  if (typeof buildingId === 'number' && !buildingData.some((b) => b.value === String(buildingId)))
    buildingData.push({ value: String(buildingId), label: `#${buildingId}` });

  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <TextInput
        label={t('poseCommon.fields.name')}
        required
        maxLength={props.nameMax}
        error={err('name')}
        data-testid={`${id}-name`}
        {...register('name')}
      />
      <NativeSelect
        label={t('poseCommon.fields.buildingId')}
        value={buildingId === null || buildingId === undefined ? '' : String(buildingId)}
        onChange={(e) => building.field.onChange(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
        data={buildingData}
        error={err('buildingId')}
        data-testid={`${id}-building`}
      />
      <NativeSelect
        label={t('poseCommon.fields.armModel')}
        description={props.modelHint}
        required
        value={String(model.field.value ?? '')}
        onChange={(e) => {
          const m = ARM_MODELS.find((x) => String(x) === e.currentTarget.value) ?? 100;
          model.field.onChange(m);
          props.onShape(m, armType);
        }}
        data={ARM_MODELS.map((m) => ({ value: String(m), label: t(`poseCommon.armModels.${m}`) }))}
        data-testid={`${id}-arm-model`}
      />
      <NativeSelect
        label={t('poseCommon.fields.armType')}
        required
        value={String(type.field.value ?? '')}
        onChange={(e) => {
          const a = ARM_TYPES.find((x) => String(x) === e.currentTarget.value) ?? 1;
          type.field.onChange(a);
          props.onShape(armModel, a);
        }}
        data={ARM_TYPES.map((a) => ({ value: String(a), label: t(`poseCommon.armTypes.${a}`) }))}
        data-testid={`${id}-arm-type`}
      />
    </SimpleGrid>
  );
}
