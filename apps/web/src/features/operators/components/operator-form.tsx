import { zodResolver } from '@hookform/resolvers/zod';
import { Checkbox, Group, NativeSelect, PasswordInput, Switch, TextInput } from '@mantine/core';
import {
  createOperatorBodySchema,
  operatorTypeSchema,
  updateOperatorBodySchema,
  type Operator,
  type OperatorTypeCode,
} from '@portal/contract';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PasswordChecklist } from '@/components/password-checklist';
import { paths } from '@/config/paths';
import { FormShell, useFormKit } from '@/components/form-page';
import { useCreateOperator } from '../api/create-operator';
import { useBuildingOptions } from '../api/get-building-options';
import { useOrganizationOptions } from '../api/get-organization-options';
import { useUpdateOperator } from '../api/update-operator';

export interface OperatorFormValues {
  loginId: string;
  lastName: string;
  firstName: string;
  /** On edit, '' keeps the current password. */
  password: string;
  type: OperatorTypeCode;
  organizationId: number;
  /** Undefined until chosen (the schema then says "required"). */
  buildingId: number | undefined;
  flowEditRestricted: boolean;
  /** May not export reports (general operators only). */
  exportRestricted: boolean;
}
const FIELDS = [
  'loginId',
  'lastName',
  'firstName',
  'password',
  'type',
  'organizationId',
  'buildingId',
  'flowEditRestricted',
  'exportRestricted',
] as const;

/** Types an administrator may give: organization administrators never create system administrators. */
export const assignableTypes = (viewerType: number): OperatorTypeCode[] =>
  operatorTypeSchema.options.map((o) => o.value).filter((v) => v !== 9 || viewerType === 9);

/** The contract schema of the request, fed the form's values ('' password on edit = keep). */
const resolverFor = (operator: Operator | undefined): Resolver<OperatorFormValues> => {
  if (!operator) return zodResolver(createOperatorBodySchema) as unknown as Resolver<OperatorFormValues>;
  const resolve = zodResolver(updateOperatorBodySchema) as unknown as Resolver<Record<string, unknown>>;
  return (values, context, options) =>
    resolve(
      { ...values, password: values.password === '' ? undefined : values.password, updatedAt: operator.updatedAt },
      context,
      options as never,
    ) as never;
};

interface OperatorFormProps {
  operator?: Operator;
  viewer: { type: number; organizationId: number };
  /** Edit: fetches the stored operator again (after a conflicting save). */
  onReload?: () => Promise<Operator | undefined>;
}

const valuesOf = (operator: Operator): OperatorFormValues => ({
  loginId: operator.loginId,
  lastName: operator.lastName,
  firstName: operator.firstName,
  password: '',
  type: operator.type,
  organizationId: operator.organizationId,
  buildingId: operator.buildingId ?? undefined,
  flowEditRestricted: operator.flowEditRestricted,
  exportRestricted: operator.exportRestricted,
});

export function OperatorForm({ operator, viewer, onReload }: OperatorFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateOperator();
  const update = useUpdateOperator();
  const mutation = operator ? update : create;
  const systemAdmin = viewer.type === 9;
  const form = useForm<OperatorFormValues>({
    resolver: resolverFor(operator),
    defaultValues: operator
      ? valuesOf(operator)
      : {
          loginId: '',
          lastName: '',
          firstName: '',
          password: '',
          type: 0,
          organizationId: viewer.organizationId,
          buildingId: undefined,
          flowEditRestricted: false,
          exportRestricted: false,
        },
  });
  const kit = useFormKit(form, {
    fields: FIELDS,
    duplicateText: t('people.op.duplicateLoginId'),
    record: operator,
    reload: onReload,
    toValues: valuesOf,
  });
  const base = kit.base;
  const [password, type, organizationId] = useWatch({
    control: form.control,
    name: ['password', 'type', 'organizationId'],
  });
  const organizations = useOrganizationOptions();
  const buildings = useBuildingOptions(organizationId);
  const { err } = kit;

  const onSubmit = form.handleSubmit((v) => {
    const fields = {
      loginId: v.loginId.trim(),
      lastName: v.lastName.trim(),
      firstName: v.firstName.trim(),
      type: v.type,
      organizationId: v.organizationId,
      buildingId: v.buildingId ?? 0,
      flowEditRestricted: v.type === 0 && v.flowEditRestricted,
      exportRestricted: v.type === 0 && v.exportRestricted,
    };
    if (base) {
      update.mutate(
        {
          id: base.id,
          body: { ...fields, password: v.password === '' ? undefined : v.password, updatedAt: base.updatedAt },
        },
        kit.saved(),
      );
    } else {
      create.mutate(
        { ...fields, password: v.password },
        kit.saved<Operator>({
          successText: t('people.created'),
          onSuccess: (op) => void navigate(paths.operator.detail.getHref(op.id)),
        }),
      );
    }
  });

  const organizationData = (organizations.data ?? []).map((o) => ({ value: String(o.id), label: o.name }));
  if (!organizationData.some((o) => o.value === String(organizationId)))
    organizationData.push({ value: String(organizationId), label: operator?.organizationName ?? `#${organizationId}` });
  const buildingData = [
    { value: '', label: t('people.op.chooseBuilding'), disabled: true },
    ...(buildings.data ?? []).map((b) => ({ value: String(b.id), label: b.name })),
  ];

  return (
    <FormShell
      kit={kit}
      onSubmit={onSubmit}
      mutation={mutation}
      label={t('people.op.listTitle')}
      testId="operator-form"
      submitTestId="operator-save"
      createLabel={t('people.create')}
      createCancelTo={paths.operator.list.getHref()}
    >
      <TextInput
        label={t('people.op.loginId')}
        type="email"
        required
        autoComplete="off"
        error={err('loginId')}
        data-testid="op-login-id"
        {...form.register('loginId')}
      />
      <Group grow align="flex-start">
        <TextInput
          label={t('people.op.lastName')}
          required
          error={err('lastName')}
          data-testid="op-last-name"
          {...form.register('lastName')}
        />
        <TextInput
          label={t('people.op.firstName')}
          required
          error={err('firstName')}
          data-testid="op-first-name"
          {...form.register('firstName')}
        />
      </Group>
      <PasswordInput
        label={t('people.op.password')}
        required={!operator}
        autoComplete="new-password"
        description={operator ? t('people.op.passwordKeep') : undefined}
        placeholder={operator ? t('people.notif.botPasswordUnchanged') : undefined}
        error={err('password')}
        data-testid="op-password"
        {...form.register('password')}
      />
      {(!operator || password !== '') && <PasswordChecklist password={password} />}
      <Group grow align="flex-start">
        <Controller
          control={form.control}
          name="type"
          render={({ field }) => (
            <NativeSelect
              label={t('people.op.type')}
              value={String(field.value)}
              onChange={(e) => {
                const v = operatorTypeSchema.safeParse(Number(e.currentTarget.value));
                if (!v.success) return;
                field.onChange(v.data);
                // Flow editing can be restricted only for general operators (spec section 6).
                if (v.data !== 0) {
                  form.setValue('flowEditRestricted', false);
                  form.setValue('exportRestricted', false);
                }
              }}
              onBlur={field.onBlur}
              ref={field.ref}
              error={err('type')}
              data={assignableTypes(viewer.type).map((v) => ({ value: String(v), label: t(`people.op.types.${v}`) }))}
              data-testid="op-type"
            />
          )}
        />
        <Controller
          control={form.control}
          name="organizationId"
          render={({ field }) => (
            <NativeSelect
              label={t('people.op.organization')}
              disabled={!systemAdmin}
              value={String(field.value)}
              onChange={(e) => {
                field.onChange(Number(e.currentTarget.value));
                form.setValue('buildingId', undefined);
              }}
              onBlur={field.onBlur}
              ref={field.ref}
              error={err('organizationId')}
              data={organizationData}
              data-testid="op-organization"
            />
          )}
        />
        <Controller
          control={form.control}
          name="buildingId"
          render={({ field }) => (
            <NativeSelect
              label={t('people.op.building')}
              required
              value={field.value === undefined ? '' : String(field.value)}
              onChange={(e) => field.onChange(e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value))}
              onBlur={field.onBlur}
              ref={field.ref}
              error={err('buildingId')}
              data={buildingData}
              data-testid="op-building"
            />
          )}
        />
      </Group>
      <Controller
        control={form.control}
        name="flowEditRestricted"
        render={({ field }) => (
          <Switch
            label={t('people.op.flowEditRestricted')}
            description={t('people.op.flowEditHint')}
            disabled={type !== 0}
            checked={field.value}
            onChange={(e) => field.onChange(e.currentTarget.checked)}
            onBlur={field.onBlur}
            ref={field.ref}
            error={err('flowEditRestricted')}
            data-testid="op-flow-edit"
          />
        )}
      />
      {type === 0 && (
        <Controller
          control={form.control}
          name="exportRestricted"
          render={({ field }) => (
            <Checkbox
              label={t('people.op.exportRestricted')}
              description={t('people.op.exportRestrictedHint')}
              checked={field.value}
              onChange={(e) => field.onChange(e.currentTarget.checked)}
              onBlur={field.onBlur}
              ref={field.ref}
              error={err('exportRestricted')}
              data-testid="op-export-restricted"
            />
          )}
        />
      )}
    </FormShell>
  );
}
