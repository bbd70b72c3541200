import { zodResolver } from '@hookform/resolvers/zod';
import { Group, NativeSelect, Stack, Text, Textarea, TextInput } from '@mantine/core';
import {
  WORK_PLAN_ICONS,
  WORK_PLAN_TYPES,
  emptyWorkPlanDefinition,
  floorDisplayName,
  workPlanDefinitionSchema,
  workPlanInputSchema,
  type WorkPlan,
  type WorkPlanDefinition,
  type WorkPlanIcon,
  type WorkPlanInput,
  type WorkPlanType,
} from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { buildingFilterOptions } from '@/components/building-filter';
import { FormShell, LockedFields, useFormKit } from '@/components/form-page';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useCreateWorkPlan, useFloorOptions, useUpdateWorkPlan } from '../api';
import { useWorkPlanMessage } from '../words';
import { StepEditor } from './step-editor';

export interface WorkPlanFormValues {
  name: string;
  description: string;
  buildingId: number | undefined;
  floorId: number | undefined;
  icon: WorkPlanIcon;
  type: WorkPlanType;
  status: 0 | 1;
  definition: WorkPlanDefinition;
  templateId: number | null;
}

const FIELDS = [
  'name',
  'description',
  'buildingId',
  'floorId',
  'icon',
  'type',
  'status',
  'definition',
  'templateId',
] as const;

export const emptyValues = (): WorkPlanFormValues => ({
  name: '',
  description: '',
  buildingId: undefined,
  floorId: undefined,
  icon: 'elevator',
  type: 0,
  status: 1,
  definition: emptyWorkPlanDefinition(),
  templateId: null,
});

export const bodyOf = (v: WorkPlanFormValues): WorkPlanInput => ({
  name: v.name.trim(),
  description: v.description.trim(),
  buildingId: v.buildingId ?? 0,
  floorId: v.floorId ?? 0,
  icon: v.icon,
  type: v.type,
  status: v.status,
  definition: v.definition,
  templateId: v.templateId,
});

export const valuesOf = (p: WorkPlan): WorkPlanFormValues => ({
  name: p.name,
  description: p.description,
  buildingId: p.buildingId,
  floorId: p.floorId,
  icon: (WORK_PLAN_ICONS as readonly string[]).includes(p.icon) ? (p.icon as WorkPlanIcon) : 'check',
  type: p.type === 0 ? 0 : 1,
  status: p.status === 1 ? 1 : 0,
  definition: p.definition,
  templateId: p.templateId,
});

/** The contract's schema on the body; a building or floor not chosen is "required"; an open waypoint too. */
const resolver: Resolver<WorkPlanFormValues> = async (values, context, options) => {
  const resolve = zodResolver(workPlanInputSchema.omit({ definition: true })) as unknown as Resolver<
    Record<string, unknown>
  >;
  const result = await resolve(bodyOf(values) as never, context, options as never);
  const errors = { ...result.errors } as Record<string, unknown>;
  for (const f of ['buildingId', 'floorId'] as const)
    if (values[f] === undefined) errors[f] = { type: 'required', message: 'validation.required' };
  const first = definitionIssues(values.definition, true)[0];
  if (first) errors.definition = { type: 'custom', message: first.message };
  if (Object.keys(errors).length === 0) return { values, errors: {} };
  return { values: {}, errors } as never;
};

/** The definition's problems the browser can see: the schema's, and (for a work plan) every waypoint chosen. */
export function definitionIssues(def: WorkPlanDefinition, plan: boolean): Array<{ path: string; message: string }> {
  const parsed = workPlanDefinitionSchema.safeParse(def);
  const out = parsed.success ? [] : parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  if (plan)
    def.steps.forEach((s, i) => {
      if (s.main.kind === 'moveToWaypoint' && s.main.waypointId === null)
        out.push({ path: `steps.${i}.main.waypointId`, message: 'workPlanValidation.waypointRequired' });
    });
  return out;
}

/** Server details under `definition.` kept for the step editor (the kit puts one under the field). */
export function useDefinitionIssues(def: WorkPlanDefinition, plan: boolean, tried: boolean) {
  const message = useWorkPlanMessage();
  const [server, setServer] = useState<{ def: WorkPlanDefinition; issues: Map<string, string> } | null>(null);
  const local = useMemo(() => definitionIssues(def, plan), [def, plan]);
  const issueAt = useCallback(
    (path: string) => {
      const fromServer = server && server.def === def ? server.issues.get(path) : undefined;
      const own = tried ? local.find((i) => i.path === path)?.message : undefined;
      return message(own ?? fromServer);
    },
    [server, def, local, tried, message],
  );
  const onServerError = (error: unknown) => {
    if (!isApiError(error)) return;
    const issues = new Map<string, string>();
    for (const d of error.details)
      if (d.path.startsWith('definition.')) issues.set(d.path.slice('definition.'.length), d.message);
    setServer({ def, issues });
  };
  return { issueAt, onServerError };
}

interface WorkPlanFormProps {
  plan?: WorkPlan;
  initial?: Partial<WorkPlanFormValues>;
  readOnly?: boolean;
  onReload?: () => Promise<WorkPlan | undefined>;
  onCreated?: (p: WorkPlan) => void;
  startActions?: ReactNode;
  /** Above the fields (the create page's template chooser). */
  header?: (set: (v: Partial<WorkPlanFormValues>) => void) => ReactNode;
}

/** /workplan/create and /workplan/{id}: the plan's fields and its steps. */
export function WorkPlanForm({
  plan,
  initial,
  readOnly,
  onReload,
  onCreated,
  startActions,
  header,
}: WorkPlanFormProps) {
  const { t } = useTranslation();
  const messageText = useWorkPlanMessage();
  const create = useCreateWorkPlan();
  const update = useUpdateWorkPlan();
  const mutation = plan ? update : create;
  const form = useForm<WorkPlanFormValues>({
    resolver,
    defaultValues: plan ? valuesOf(plan) : { ...emptyValues(), ...initial },
  });
  const kit = useFormKit(form, {
    fields: FIELDS,
    record: plan,
    reload: onReload,
    toValues: valuesOf,
    translate: messageText,
  });
  const { err } = kit;
  const [buildingId, floorId, definition] = useWatch({
    control: form.control,
    name: ['buildingId', 'floorId', 'definition'],
  });
  const tried = form.formState.submitCount > 0;
  const { issueAt, onServerError } = useDefinitionIssues(definition, true, tried);
  const buildings = useQuery(buildingFilterOptions());
  const floors = useFloorOptions(buildingId);
  const floorRows = (floors.data ?? []).filter((f): f is typeof f & { id: number } => typeof f.id === 'number');
  const numberOrUndefined = (v: string) => (v === '' ? undefined : Number(v));

  const onSubmit = form.handleSubmit((v) => {
    const body = bodyOf(v);
    const base = kit.base;
    const withIssues = <D,>(s: { onSuccess: (d: D) => void; onError: (e: unknown) => void }) => ({
      ...s,
      onError: (e: unknown) => {
        onServerError(e);
        s.onError(e);
      },
    });
    if (base) update.mutate({ id: base.id, body: { ...body, updatedAt: base.updatedAt } }, withIssues(kit.saved()));
    else
      create.mutate(
        body,
        withIssues(kit.saved<WorkPlan>({ successText: t('workPlans.form.created'), onSuccess: onCreated })),
      );
  });

  return (
    <FormShell
      kit={kit}
      onSubmit={onSubmit}
      mutation={mutation}
      label={t('workPlans.title')}
      testId="wp-form"
      submitTestId="wp-save"
      createLabel={t('workPlans.create')}
      createCancelTo={paths.workplan.settings.getHref()}
      startActions={startActions}
      readOnly={readOnly}
      cancelTo={readOnly ? paths.workplan.settings.getHref() : undefined}
      cancelLabel={readOnly ? t('workPlans.back') : undefined}
    >
      <LockedFields locked={readOnly}>
        <Stack>
          {header?.((v) => {
            for (const [k, val] of Object.entries(v))
              form.setValue(k as keyof WorkPlanFormValues, val as never, { shouldDirty: true });
          })}
          <TextInput
            label={t('workPlans.form.name')}
            required
            error={err('name')}
            data-testid="wp-name"
            {...form.register('name')}
          />
          <Textarea
            label={t('workPlans.form.description')}
            autosize
            minRows={2}
            error={err('description')}
            data-testid="wp-description"
            {...form.register('description')}
          />
          <Group grow align="flex-start">
            <Controller
              control={form.control}
              name="buildingId"
              render={({ field }) => (
                <NativeSelect
                  label={t('workPlans.form.building')}
                  required
                  value={field.value === undefined ? '' : String(field.value)}
                  onChange={(e) => {
                    field.onChange(numberOrUndefined(e.currentTarget.value));
                    form.setValue('floorId', undefined, { shouldDirty: true });
                  }}
                  error={err('buildingId')}
                  data={[
                    { value: '', label: t('workPlans.form.chooseBuilding'), disabled: true },
                    ...(buildings.data ?? []).flatMap((b) =>
                      typeof b.id === 'number' ? [{ value: String(b.id), label: b.name ?? `#${b.id}` }] : [],
                    ),
                    ...(field.value !== undefined && !(buildings.data ?? []).some((b) => b.id === field.value)
                      ? [{ value: String(field.value), label: plan?.buildingName ?? `#${field.value}` }]
                      : []),
                  ]}
                  data-testid="wp-building"
                />
              )}
            />
            <Controller
              control={form.control}
              name="floorId"
              render={({ field }) => (
                <NativeSelect
                  label={t('workPlans.form.floor')}
                  required
                  value={field.value === undefined ? '' : String(field.value)}
                  onChange={(e) => field.onChange(numberOrUndefined(e.currentTarget.value))}
                  error={err('floorId')}
                  data={[
                    { value: '', label: t('workPlans.form.chooseFloor'), disabled: true },
                    ...floorRows.map((f) => ({ value: String(f.id), label: floorDisplayName(f) })),
                    ...(field.value !== undefined && !floorRows.some((f) => f.id === field.value)
                      ? [{ value: String(field.value), label: plan?.floorName ?? `#${field.value}` }]
                      : []),
                  ]}
                  data-testid="wp-floor"
                />
              )}
            />
          </Group>
          <Group grow align="flex-start">
            <Controller
              control={form.control}
              name="type"
              render={({ field }) => (
                <NativeSelect
                  label={t('workPlans.form.type')}
                  required
                  value={String(field.value)}
                  onChange={(e) => field.onChange(e.currentTarget.value === '0' ? 0 : 1)}
                  data={WORK_PLAN_TYPES.map((x) => ({ value: String(x), label: t(`workPlans.types.${x}`) }))}
                  data-testid="wp-type"
                />
              )}
            />
            <Controller
              control={form.control}
              name="icon"
              render={({ field }) => (
                <NativeSelect
                  label={t('workPlans.form.icon')}
                  required
                  value={field.value}
                  onChange={(e) => field.onChange(e.currentTarget.value)}
                  data={WORK_PLAN_ICONS.map((x) => ({ value: x, label: t(`workPlans.icons.${x}`) }))}
                  data-testid="wp-icon"
                />
              )}
            />
            <Controller
              control={form.control}
              name="status"
              render={({ field }) => (
                <NativeSelect
                  label={t('workPlans.form.status')}
                  required
                  value={String(field.value)}
                  onChange={(e) => field.onChange(e.currentTarget.value === '1' ? 1 : 0)}
                  data={[1, 0].map((x) => ({
                    value: String(x),
                    label: t(`workPlans.statuses.${x === 1 ? '1' : '0'}`),
                  }))}
                  data-testid="wp-status"
                />
              )}
            />
          </Group>
          {err('definition') && (
            <Text c="red" size="sm" data-testid="wp-definition-error">
              {err('definition')}
            </Text>
          )}
          <Controller
            control={form.control}
            name="definition"
            render={({ field }) => (
              <StepEditor
                value={field.value}
                onChange={field.onChange}
                place={
                  buildingId !== undefined && floorId !== undefined
                    ? { buildingId, floorId }
                    : { buildingId: buildingId ?? 0, floorId: 0 }
                }
                issueAt={issueAt}
                readOnly={readOnly}
              />
            )}
          />
        </Stack>
      </LockedFields>
    </FormShell>
  );
}
