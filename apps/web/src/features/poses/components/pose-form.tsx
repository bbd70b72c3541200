import { zodResolver } from '@hookform/resolvers/zod';
import { Box, Button, Group, NumberInput, Paper, SimpleGrid, Slider, Stack, Text, Title } from '@mantine/core';
import {
  ARM_MODEL_SPECS,
  armCountOf,
  hasPeriscope,
  homeArms,
  POSE_NAME_MAX,
  poseDefInputSchema,
  type ArmModel,
  type ArmTypeCode,
  type PoseDef,
  type PoseDefInput,
} from '@portal/contract';
import type { ReactNode } from 'react';
import { Controller, useForm, useWatch, type DefaultValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormShell, LockedFields, useFormKit } from '@/components/form-page';
import { useCreatePoseDef } from '../api/create-pose-def';
import { PoseHeadFields } from './pose-head-fields';
import { useUpdatePoseDef } from '../api/update-pose-def';
import { ArmDrawing } from './arm-drawing';
import { usePoseMessage } from './use-pose-message';

export type PoseFormValues = PoseDefInput;
const fields = ['name', 'buildingId', 'armModel', 'armType', 'arms', 'periscopeMm'] as const;

export const poseFormValues = (p: PoseDef): PoseFormValues => ({
  name: p.name,
  buildingId: p.buildingId,
  armModel: p.armModel,
  armType: p.armType,
  arms: p.arms,
  periscopeMm: p.periscopeMm,
});

export const emptyPoseForm = (buildingId: number | null = null): DefaultValues<PoseFormValues> => ({
  name: '',
  buildingId,
  armModel: 100,
  armType: 1,
  arms: homeArms(100, 1),
  periscopeMm: null,
});

interface PoseFormProps {
  /** Edit: the stored pose. */
  pose?: PoseDef;
  /** Edit: fetches the stored pose again (the conflict dialog's answers). */
  onReload?: () => Promise<PoseDef | undefined>;
  /** Create: the values to start from. */
  initial?: DefaultValues<PoseFormValues>;
  /** Create: the new pose (e.g. go to its page). */
  onCreated?: (pose: PoseDef) => void;
  readOnly?: boolean;
  /** Buttons at the start of the button row (delete). */
  extraActions?: ReactNode;
  /** Where Cancel of a new pose goes. */
  cancelTo?: string;
  /** The full-width editor (/editor/pose) draws larger. */
  wide?: boolean;
}

/**
 * A pose definition: name, scope, arm model and type, a slider and a number per joint with the
 * model's limits, the periscope height when the type has one, and a live side view. Validated with
 * the contract schema (the same rules as the server), on the form kit (a stale save asks).
 */
export function PoseForm({
  pose,
  onReload,
  initial,
  onCreated,
  readOnly,
  extraActions,
  cancelTo,
  wide,
}: PoseFormProps) {
  const { t } = useTranslation();
  const message = usePoseMessage();
  const create = useCreatePoseDef();
  const update = useUpdatePoseDef();
  const form = useForm<PoseFormValues>({
    resolver: zodResolver(poseDefInputSchema),
    defaultValues: pose ? poseFormValues(pose) : (initial ?? emptyPoseForm()),
  });
  const kit = useFormKit(form, {
    fields,
    duplicateText: t('poseCommon.duplicate'),
    record: pose,
    reload: onReload,
    toValues: poseFormValues,
    translate: message,
  });
  const base = kit.base;
  const { errors } = form.formState;
  const armModel = (useWatch({ control: form.control, name: 'armModel' }) ?? 100) as ArmModel;
  const armType = (useWatch({ control: form.control, name: 'armType' }) ?? 1) as ArmTypeCode;
  const arms = useWatch({ control: form.control, name: 'arms' }) ?? [];
  const periscopeMm = useWatch({ control: form.control, name: 'periscopeMm' }) ?? null;
  const spec = ARM_MODEL_SPECS[armModel];

  const submit = form.handleSubmit((values) => {
    if (base)
      update.mutate(
        { id: base.id, body: { ...values, updatedAt: base.updatedAt } },
        kit.saved({ successText: t('poseCommon.saved') }),
      );
    else create.mutate(values, kit.saved<PoseDef>({ successText: t('poseCommon.created'), onSuccess: onCreated }));
  });

  /** Another model or type: the joints go back to that model's home pose. */
  const reshape = (model: ArmModel, type: ArmTypeCode) => {
    form.setValue('arms', homeArms(model, type), { shouldDirty: true });
    form.setValue('periscopeMm', hasPeriscope(type) ? 0 : null, { shouldDirty: true });
    form.clearErrors(['arms', 'periscopeMm']);
  };

  const armLabel = (a: number) =>
    armCountOf(armType) === 1 ? t('poseDefs.arm') : a === 0 ? t('poseDefs.leftArm') : t('poseDefs.rightArm');

  return (
    <FormShell
      kit={kit}
      onSubmit={submit}
      mutation={base ? update : create}
      label={t('poseDefs.listTitle')}
      testId="pose-form"
      submitTestId="pose-save"
      createLabel={t('poseDefs.create')}
      createCancelTo={cancelTo}
      readOnly={readOnly}
      startActions={extraActions}
      maw="none"
    >
      <LockedFields locked={readOnly}>
        <Stack>
          <SimpleGrid cols={{ base: 1, md: wide ? 3 : 2 }} spacing="lg">
            <Stack style={{ gridColumn: wide ? 'span 2' : undefined }}>
              <PoseHeadFields
                form={form}
                testIdPrefix="pose"
                nameMax={POSE_NAME_MAX}
                err={kit.err}
                modelHint={t('poseDefs.modelChangeHint')}
                onShape={reshape}
              />
              {hasPeriscope(armType) && (
                <Controller
                  control={form.control}
                  name="periscopeMm"
                  render={({ field }) => (
                    <JointInput
                      label={t('poseCommon.fields.periscopeMm')}
                      range={t('poseDefs.periscopeRange', { max: spec.periscopeMaxMm })}
                      min={0}
                      max={spec.periscopeMaxMm}
                      step={10}
                      unit="mm"
                      value={field.value}
                      onChange={(v) => field.onChange(v)}
                      error={kit.err('periscopeMm')}
                      disabled={readOnly}
                      testId="pose-periscope"
                    />
                  )}
                />
              )}
              <SimpleGrid cols={{ base: 1, lg: armCountOf(armType) }}>
                {Array.from({ length: armCountOf(armType) }, (_, a) => (
                  <Paper withBorder p="sm" key={`${armModel}-${armType}-${a}`} data-testid={`pose-arm-${a}`}>
                    <Stack gap="xs">
                      <Title order={3} size="h5">
                        {armLabel(a)}
                      </Title>
                      {errors.arms?.[a]?.message && (
                        <Text c="red" size="sm">
                          {message(errors.arms[a]?.message)}
                        </Text>
                      )}
                      {spec.joints.map((joint, j) => (
                        <Controller
                          key={joint.key}
                          control={form.control}
                          name={`arms.${a}.${j}`}
                          render={({ field }) => (
                            <JointInput
                              label={t(`poseJoints.${joint.key}` as 'poseJoints.shoulderYaw')}
                              range={t('poseDefs.jointRange', { min: joint.min, max: joint.max })}
                              min={joint.min}
                              max={joint.max}
                              step={1}
                              unit="°"
                              value={field.value}
                              onChange={(v) => field.onChange(v)}
                              error={message(errors.arms?.[a]?.[j]?.message)}
                              disabled={readOnly}
                              testId={`pose-joint-${a}-${j}`}
                            />
                          )}
                        />
                      ))}
                    </Stack>
                  </Paper>
                ))}
              </SimpleGrid>
              {errors.arms?.message && (
                <Text c="red" size="sm">
                  {message(errors.arms.message)}
                </Text>
              )}
            </Stack>
            <Box style={{ position: 'sticky', top: 72, alignSelf: 'start' }}>
              <Stack gap="xs">
                <Title order={3} size="h5">
                  {t('poseDefs.drawingTitle')}
                </Title>
                <ArmDrawing
                  armModel={armModel}
                  armType={armType}
                  arms={arms}
                  periscopeMm={periscopeMm}
                  height={wide ? 480 : 340}
                />
                {!readOnly && (
                  <Button
                    variant="subtle"
                    size="xs"
                    onClick={() => reshape(armModel, armType)}
                    data-testid="pose-reset-home"
                  >
                    {t('poseDefs.resetHome')}
                  </Button>
                )}
              </Stack>
            </Box>
          </SimpleGrid>
        </Stack>
      </LockedFields>
    </FormShell>
  );
}

interface JointInputProps {
  label: string;
  range: string;
  min: number;
  max: number;
  step: number;
  unit: string;
  value: number | null | undefined;
  onChange: (v: number | null) => void;
  error?: string;
  disabled?: boolean;
  testId: string;
}

/** A slider within the limits and a number input that may go beyond them (so the message shows). */
function JointInput({ label, range, min, max, step, unit, value, onChange, error, disabled, testId }: JointInputProps) {
  const inRange = typeof value === 'number' ? Math.min(Math.max(value, min), max) : min;
  return (
    <Stack gap={2}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Text size="xs" c="dimmed" data-testid={`${testId}-range`}>
          {range}
        </Text>
      </Group>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Slider
          style={{ flex: 1, marginTop: 12 }}
          min={min}
          max={max}
          step={step}
          value={inRange}
          onChange={(v) => onChange(v)}
          disabled={disabled}
          label={(v) => `${v}${unit}`}
          thumbLabel={label}
          data-testid={`${testId}-slider`}
        />
        <NumberInput
          w={100}
          aria-label={label}
          value={value ?? ''}
          onChange={(v) => onChange(typeof v === 'number' ? v : v === '' ? null : Number(v))}
          clampBehavior="none"
          step={step}
          decimalScale={1}
          suffix={unit === '°' ? '°' : undefined}
          error={error}
          disabled={disabled}
          data-testid={testId}
        />
      </Group>
    </Stack>
  );
}
