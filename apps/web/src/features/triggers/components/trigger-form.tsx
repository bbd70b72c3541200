import { zodResolver } from '@hookform/resolvers/zod';
import {
  Checkbox,
  Group,
  MultiSelect,
  NativeSelect,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  TRIGGER_AVAILABLE_EVENT_TYPES,
  TRIGGER_EVENT_TYPES,
  TRIGGER_LEVELS,
  TRIGGER_ROBOT_CHOICES,
  TRIGGER_ROBOT_STATUSES,
  TRIGGER_TARGET_TYPES,
  triggerInputSchema,
  type Trigger,
} from '@portal/contract';
import { Controller, useForm, useWatch, type Path, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormShell, LockedFields, useFormKit } from '@/components/form-page';
import { useCreateTrigger, useTriggerOptions, useUpdateTrigger } from '../api';

export type TriggerFormValues = z.input<typeof triggerInputSchema>;

const FIELDS: Path<TriggerFormValues>[] = [
  'name',
  'status',
  'eventType',
  'conditions.robotStatuses',
  'conditions.robotId',
  'conditions.robotGroupId',
  'conditions.ruleId',
  'conditions.minLevel',
  'targetType',
  'target.flowId',
  'target.robotChoice',
  'target.robotId',
  'target.targetIds',
  'target.level',
  'target.message',
  'target.webhookId',
];

export const triggerFormValues = (t: Trigger): TriggerFormValues => ({
  buildingId: t.buildingId,
  name: t.name,
  status: t.status === 1 ? 1 : 0,
  eventType: t.eventType,
  conditions: t.conditions,
  targetType: t.targetType,
  target: t.target,
});

export const emptyTriggerForm = (buildingId: number): TriggerFormValues => ({
  buildingId,
  name: '',
  status: 1,
  eventType: 1,
  conditions: { version: 1, robotStatuses: ['emergencyStop'], robotId: null, robotGroupId: null },
  targetType: 1,
  target: { version: 1, targetIds: [], level: 9, message: '', flowId: null, robotChoice: null, webhookId: null },
});

interface TriggerFormProps {
  buildingId: number;
  organizationId: number | null;
  systemAdmin: boolean;
  trigger?: Trigger;
  onReload?: () => Promise<Trigger | undefined>;
  onDone: () => void;
  readOnly?: boolean;
}

const idOrNull = (v: string) => (v === '' ? null : Number(v));

/**
 * A trigger on the form kit: name, status, the event type with its conditions and the target type
 * with its settings. Calendar, chat and Teams are shown disabled (no integration yet), as SMS and
 * phone are for notification targets.
 */
export function TriggerForm({
  buildingId,
  organizationId,
  systemAdmin,
  trigger,
  onReload,
  onDone,
  readOnly,
}: TriggerFormProps) {
  const { t } = useTranslation();
  const create = useCreateTrigger();
  const update = useUpdateTrigger();
  const options = useTriggerOptions(buildingId, organizationId, systemAdmin);
  const form = useForm<TriggerFormValues>({
    resolver: zodResolver(triggerInputSchema) as unknown as Resolver<TriggerFormValues>,
    defaultValues: trigger ? triggerFormValues(trigger) : emptyTriggerForm(buildingId),
  });
  const kit = useFormKit(form, { fields: FIELDS, record: trigger, reload: onReload, toValues: triggerFormValues });
  const base = kit.base;
  const eventType = useWatch({ control: form.control, name: 'eventType' });
  const targetType = useWatch({ control: form.control, name: 'targetType' });
  const robotChoice = useWatch({ control: form.control, name: 'target.robotChoice' });

  const submit = form.handleSubmit((values) => {
    const { buildingId: _building, ...rest } = values;
    if (base)
      update.mutate(
        { id: base.id, body: { ...rest, updatedAt: base.updatedAt } },
        kit.saved({ successText: t('buildings.triggers.saved'), onSuccess: onDone }),
      );
    else create.mutate(values, kit.saved({ successText: t('buildings.triggers.created'), onSuccess: onDone }));
  });

  const idSelect = (
    name: Path<TriggerFormValues>,
    label: string,
    data: Array<{ id: number; name: string }>,
    none: string,
    testId: string,
  ) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <NativeSelect
          label={label}
          value={field.value === null || field.value === undefined ? '' : String(field.value as number)}
          onChange={(e) => field.onChange(idOrNull(e.currentTarget.value))}
          data={[{ value: '', label: none }, ...data.map((d) => ({ value: String(d.id), label: d.name }))]}
          error={kit.err(name)}
          data-testid={testId}
        />
      )}
    />
  );

  return (
    <FormShell
      kit={kit}
      onSubmit={submit}
      mutation={base ? update : create}
      label={t('buildings.triggers.title')}
      testId="trigger-form"
      submitTestId="trigger-save"
      createLabel={t('buildings.triggers.create')}
      readOnly={readOnly}
      actions={undefined}
      maw="none"
    >
      <LockedFields locked={readOnly}>
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('buildings.triggers.fields.name')}
              required
              {...form.register('name')}
              error={kit.err('name')}
              data-testid="trigger-name"
            />
            <Controller
              control={form.control}
              name="status"
              render={({ field }) => (
                <Switch
                  mt={{ sm: 28 }}
                  label={t('buildings.triggers.fields.status')}
                  checked={field.value === 1}
                  onChange={(e) => field.onChange(e.currentTarget.checked ? 1 : 0)}
                  data-testid="trigger-status"
                />
              )}
            />
          </SimpleGrid>
          <Controller
            control={form.control}
            name="eventType"
            render={({ field }) => (
              <NativeSelect
                label={t('buildings.triggers.fields.eventType')}
                value={String(field.value)}
                onChange={(e) => field.onChange(Number(e.currentTarget.value))}
                data={TRIGGER_EVENT_TYPES.map((v) => ({
                  value: String(v),
                  label: TRIGGER_AVAILABLE_EVENT_TYPES.includes(v)
                    ? t(`buildings.triggers.eventTypes.${v}`)
                    : `${t(`buildings.triggers.eventTypes.${v}`)} (${t('buildings.triggers.notAvailable')})`,
                  disabled: !TRIGGER_AVAILABLE_EVENT_TYPES.includes(v),
                }))}
                description={t('buildings.triggers.unavailableNote')}
                error={kit.err('eventType')}
                data-testid="trigger-event-type"
              />
            )}
          />
          {eventType === 1 && (
            <Stack gap="xs">
              <Controller
                control={form.control}
                name="conditions.robotStatuses"
                render={({ field }) => (
                  <Checkbox.Group
                    label={t('buildings.triggers.fields.robotStatuses')}
                    value={field.value ?? []}
                    onChange={field.onChange}
                    error={kit.err('conditions.robotStatuses')}
                    data-testid="trigger-robot-statuses"
                  >
                    <Group mt="xs">
                      {TRIGGER_ROBOT_STATUSES.map((s) => (
                        <Checkbox key={s} value={s} label={t(`buildings.triggers.robotStatuses.${s}`)} />
                      ))}
                    </Group>
                  </Checkbox.Group>
                )}
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {idSelect(
                  'conditions.robotId',
                  t('buildings.triggers.fields.conditionRobot'),
                  options.robots,
                  t('buildings.triggers.anyRobot'),
                  'trigger-condition-robot',
                )}
                {idSelect(
                  'conditions.robotGroupId',
                  t('buildings.triggers.fields.conditionGroup'),
                  options.groups,
                  t('buildings.triggers.anyGroup'),
                  'trigger-condition-group',
                )}
              </SimpleGrid>
            </Stack>
          )}
          {eventType === 2 && (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {idSelect(
                'conditions.ruleId',
                t('buildings.triggers.fields.rule'),
                options.rules,
                t('buildings.triggers.anyRule'),
                'trigger-condition-rule',
              )}
              <Controller
                control={form.control}
                name="conditions.minLevel"
                render={({ field }) => (
                  <NativeSelect
                    label={t('buildings.triggers.fields.minLevel')}
                    value={field.value === null || field.value === undefined ? '' : String(field.value)}
                    onChange={(e) => field.onChange(idOrNull(e.currentTarget.value))}
                    data={[
                      { value: '', label: t('buildings.triggers.anyLevel') },
                      ...TRIGGER_LEVELS.map((l) => ({ value: String(l), label: t(`buildings.triggers.levels.${l}`) })),
                    ]}
                    error={kit.err('conditions.minLevel')}
                    data-testid="trigger-condition-level"
                  />
                )}
              />
            </SimpleGrid>
          )}
          {eventType === 0 && (
            <Text size="sm" c="dimmed">
              {t('buildings.triggers.scheduleNote')}
            </Text>
          )}
          <Controller
            control={form.control}
            name="targetType"
            render={({ field }) => (
              <NativeSelect
                label={t('buildings.triggers.fields.targetType')}
                value={String(field.value)}
                onChange={(e) => field.onChange(Number(e.currentTarget.value))}
                data={TRIGGER_TARGET_TYPES.map((v) => ({
                  value: String(v),
                  label: t(`buildings.triggers.targetTypes.${v}`),
                }))}
                error={kit.err('targetType')}
                data-testid="trigger-target-type"
              />
            )}
          />
          {targetType === 0 && (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {idSelect(
                'target.flowId',
                t('buildings.triggers.fields.flow'),
                options.flows,
                t('buildings.triggers.choose'),
                'trigger-flow',
              )}
              <Controller
                control={form.control}
                name="target.robotChoice"
                render={({ field }) => (
                  <NativeSelect
                    label={t('buildings.triggers.fields.robotChoice')}
                    value={field.value ?? ''}
                    onChange={(e) => field.onChange(e.currentTarget.value === '' ? null : e.currentTarget.value)}
                    data={[
                      { value: '', label: t('buildings.triggers.choose') },
                      ...TRIGGER_ROBOT_CHOICES.map((c) => ({
                        value: c,
                        label: t(`buildings.triggers.robotChoices.${c}`),
                      })),
                    ]}
                    error={kit.err('target.robotChoice')}
                    data-testid="trigger-robot-choice"
                  />
                )}
              />
              {robotChoice === 'robot' &&
                idSelect(
                  'target.robotId',
                  t('buildings.triggers.fields.targetRobot'),
                  options.robots,
                  t('buildings.triggers.choose'),
                  'trigger-target-robot',
                )}
            </SimpleGrid>
          )}
          {targetType === 1 && (
            <Stack gap="xs">
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Controller
                  control={form.control}
                  name="target.targetIds"
                  render={({ field }) => (
                    <MultiSelect
                      label={t('buildings.triggers.fields.targets')}
                      value={(field.value ?? []).map(String)}
                      onChange={(v) => field.onChange(v.map(Number))}
                      data={options.targets.map((n) => ({
                        value: String(n.id),
                        label: n.room ? `${n.room} (${n.address})` : n.address,
                      }))}
                      error={kit.err('target.targetIds')}
                      data-testid="trigger-targets"
                    />
                  )}
                />
                <Controller
                  control={form.control}
                  name="target.level"
                  render={({ field }) => (
                    <NativeSelect
                      label={t('buildings.triggers.fields.level')}
                      value={field.value === null || field.value === undefined ? '' : String(field.value)}
                      onChange={(e) => field.onChange(idOrNull(e.currentTarget.value))}
                      data={[
                        { value: '', label: t('buildings.triggers.choose') },
                        ...TRIGGER_LEVELS.map((l) => ({
                          value: String(l),
                          label: t(`buildings.triggers.levels.${l}`),
                        })),
                      ]}
                      error={kit.err('target.level')}
                      data-testid="trigger-level"
                    />
                  )}
                />
              </SimpleGrid>
              <Textarea
                label={t('buildings.triggers.fields.message')}
                autosize
                minRows={2}
                {...form.register('target.message')}
                error={kit.err('target.message')}
                data-testid="trigger-message"
              />
            </Stack>
          )}
          {targetType === 2 && (
            <Text size="sm" c="dimmed">
              {t('buildings.triggers.reportNote')}
            </Text>
          )}
          {targetType === 3 &&
            (systemAdmin ? (
              idSelect(
                'target.webhookId',
                t('buildings.triggers.fields.webhook'),
                options.webhooks,
                t('buildings.triggers.choose'),
                'trigger-webhook',
              )
            ) : (
              <Controller
                control={form.control}
                name="target.webhookId"
                render={({ field }) => (
                  <TextInput
                    label={t('buildings.triggers.fields.webhookId')}
                    description={t('buildings.triggers.webhookIdHint')}
                    inputMode="numeric"
                    value={field.value === null || field.value === undefined ? '' : String(field.value)}
                    onChange={(e) => field.onChange(idOrNull(e.currentTarget.value.trim()))}
                    error={kit.err('target.webhookId')}
                    data-testid="trigger-webhook-id"
                  />
                )}
              />
            ))}
        </Stack>
      </LockedFields>
    </FormShell>
  );
}
