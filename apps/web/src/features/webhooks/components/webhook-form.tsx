import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Checkbox, Group, NativeSelect, PasswordInput, SimpleGrid, Text, TextInput } from '@mantine/core';
import {
  NOTIFICATION_EVENT_KINDS,
  notificationEventKindSchema,
  type NotificationEventKind,
  updateWebhookBodySchema,
  WEBHOOK_AUTH_TYPES,
  WEBHOOK_LEVELS,
  WEBHOOK_TYPES,
  webhookAuthTypeSchema,
  webhookInputSchema,
  webhookLevelSchema,
  webhookStatusSchema,
  webhookTypeSchema,
  type UpdateWebhookBody,
  type Webhook,
  type WebhookAuthType,
  type WebhookInput,
  type WebhookLevel,
  type WebhookStatus,
  type WebhookWithSecret,
} from '@portal/contract';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormShell, useFormKit } from '@/components/form-page';
import { paths } from '@/config/paths';
import { useCreateWebhook } from '../api/create-webhook';
import { useUpdateWebhook } from '../api/update-webhook';
import { useWebhookErrorText } from './webhook-words';

/** The form's fields: the request's, with the write-only secret as text ('' = keep the stored one on an edit). */
interface FormValues {
  name: string;
  type: WebhookInput['type'];
  url: string;
  authType: WebhookAuthType;
  authUsername: string;
  authSecret: string;
  customHeaderName: string;
  status: WebhookStatus;
  level: WebhookLevel;
  /** The kinds ticked; all of them is sent as null (every kind, also those added later). */
  eventKinds: NotificationEventKind[];
}
const FIELDS = [
  'name',
  'type',
  'url',
  'authType',
  'authUsername',
  'authSecret',
  'customHeaderName',
  'status',
  'level',
  'eventKinds',
] as const;

const toValues = (w: Webhook | undefined): FormValues => ({
  name: w?.name ?? '',
  type: w?.type ?? 0,
  // The stored URL and secret are only answered masked: empty keeps them.
  url: '',
  authType: w?.authType ?? 'none',
  authUsername: w?.authUsername ?? '',
  authSecret: '',
  customHeaderName: w?.customHeaderName ?? '',
  status: w?.status ?? 1,
  level: w?.level ?? 0,
  eventKinds: w?.eventKinds ?? [...NOTIFICATION_EVENT_KINDS],
});

/** Whether an empty secret keeps the stored one: an edit of the same auth type that has one. */
const keepsSecret = (base: Webhook | undefined, authType: WebhookAuthType) =>
  base !== undefined && authType !== 'none' && base.authType === authType && base.authSecret !== null;

/** The request body of the values: fields of other auth types dropped, empty kept values left out. */
function bodyFields(v: FormValues, base: Webhook | undefined) {
  const url = base && v.url.trim() === '' ? undefined : v.url;
  const authSecret =
    v.authType === 'none' || (v.authSecret === '' && keepsSecret(base, v.authType)) ? undefined : v.authSecret;
  return {
    name: v.name,
    type: v.type,
    authType: v.authType,
    authUsername: v.authType === 'password' ? v.authUsername : '',
    customHeaderName: v.authType === 'custom' ? v.customHeaderName : '',
    status: v.status,
    level: v.level,
    eventKinds: NOTIFICATION_EVENT_KINDS.every((k) => v.eventKinds.includes(k))
      ? null
      : NOTIFICATION_EVENT_KINDS.filter((k) => v.eventKinds.includes(k)),
    ...(authSecret === undefined ? {} : { authSecret }),
    url,
  };
}
const createBody = (v: FormValues): WebhookInput => ({ ...bodyFields(v, undefined), url: v.url });
const updateBody = (v: FormValues, base: Webhook): UpdateWebhookBody => {
  const { url, ...rest } = bodyFields(v, base);
  return { ...rest, ...(url === undefined ? {} : { url }), updatedAt: base.updatedAt };
};

const createResolver = zodResolver(webhookInputSchema);
const updateResolver = zodResolver(updateWebhookBodySchema);

interface WebhookFormProps {
  webhook?: Webhook;
  /** Edit: fetches the stored webhook again (the conflict dialog's answers). */
  onReload?: () => Promise<Webhook | undefined>;
  /** Create: the new webhook and its signing secret (shown once). */
  onCreated?: (created: WebhookWithSecret) => void;
}

/** Create and edit form of a webhook: the fields each auth type needs, secrets write-only. */
export function WebhookForm({ webhook, onReload, onCreated }: WebhookFormProps) {
  const { t } = useTranslation();
  const errorText = useWebhookErrorText();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const mutation = webhook ? update : create;
  // Checked as the request it becomes (called on validation, once `kit` holds the stored webhook).
  const resolver: Resolver<FormValues> = (values, context, options) =>
    (kit.base
      ? updateResolver(updateBody(values, kit.base), context, options as never)
      : createResolver(createBody(values), context, options as never)) as never;
  const form = useForm<FormValues>({ resolver, defaultValues: toValues(webhook) });
  const kit = useFormKit(form, {
    fields: FIELDS,
    duplicateText: t('errors.DUPLICATE'),
    record: webhook,
    reload: onReload,
    toValues,
  });
  const { err, base } = kit;
  const [type, authType] = useWatch({ control: form.control, name: ['type', 'authType'] });
  const { isSubmitted } = form.formState;
  const secretKept = keepsSecret(base, authType);
  const secretLabel =
    authType === 'password'
      ? t('webhooks.fields.authPassword')
      : authType === 'token'
        ? t('webhooks.fields.authToken')
        : t('webhooks.fields.customHeaderValue');

  const onSubmit = form.handleSubmit(() => {
    const values = form.getValues();
    if (base) {
      update.mutate({ id: base.id, body: updateBody(values, base) }, kit.saved());
    } else {
      create.mutate(
        createBody(values),
        kit.saved({ successText: t('webhooks.created'), onSuccess: (created) => onCreated?.(created) }),
      );
    }
  });

  const numberSelect = <K extends 'type' | 'status' | 'level'>(
    name: K,
    label: string,
    parse: (v: number) => FormValues[K] | undefined,
    data: Array<{ value: string; label: string }>,
  ) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <NativeSelect
          label={label}
          value={String(field.value)}
          onChange={(e) => {
            const v = parse(Number(e.currentTarget.value));
            if (v !== undefined) field.onChange(v);
          }}
          onBlur={field.onBlur}
          ref={field.ref}
          error={err(name)}
          data={data}
          data-testid={`webhook-${name}`}
        />
      )}
    />
  );

  return (
    <FormShell
      kit={kit}
      onSubmit={onSubmit}
      mutation={mutation}
      label={t('webhooks.title')}
      testId="webhook-form"
      submitTestId="webhook-save"
      createLabel={t('webhooks.create')}
      createCancelTo={paths.system.webhookList.getHref()}
      maw={680}
    >
      {base?.status === 9 && (
        <Alert color="red" data-testid="webhook-error-state">
          {t('webhooks.errorState', { count: base.consecutiveFailures, error: errorText(base.lastError) })}
        </Alert>
      )}
      <TextInput
        label={t('webhooks.fields.name')}
        required
        error={err('name')}
        data-testid="webhook-name"
        {...form.register('name')}
      />
      <Group grow align="flex-start">
        {numberSelect(
          'type',
          t('webhooks.fields.type'),
          (v) => webhookTypeSchema.safeParse(v).data,
          WEBHOOK_TYPES.map((v) => ({ value: String(v), label: t(`webhooks.types.${v}`) })),
        )}
        {numberSelect('status', t('webhooks.fields.status'), (v) => webhookStatusSchema.safeParse(v).data, [
          { value: '1', label: t('webhooks.statuses.1') },
          { value: '0', label: t('webhooks.statuses.0') },
          // Error is the server's to set: offered only to keep it while other fields change.
          ...(base?.status === 9 ? [{ value: '9', label: t('webhooks.statusErrorOption') }] : []),
        ])}
      </Group>
      <Text size="xs" c="dimmed" mt={-8}>
        {t(`webhooks.typeHints.${type}`)}
      </Text>
      {numberSelect(
        'level',
        t('webhooks.fields.level'),
        (v) => webhookLevelSchema.safeParse(v).data,
        WEBHOOK_LEVELS.map((v) => ({ value: String(v), label: t(`levels.${v}`) })),
      )}
      <Text size="xs" c="dimmed" mt={-8}>
        {t('webhooks.fields.levelHint')}
      </Text>
      <Controller
        control={form.control}
        name="eventKinds"
        render={({ field }) => (
          <Checkbox.Group
            label={t('webhooks.fields.eventKinds')}
            description={t('webhooks.fields.eventKindsHint')}
            value={field.value}
            onChange={(v) =>
              field.onChange(
                v.filter((k): k is NotificationEventKind => notificationEventKindSchema.safeParse(k).success),
              )
            }
            error={err('eventKinds')}
            data-testid="webhook-eventKinds"
          >
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={6} mt={6}>
              {NOTIFICATION_EVENT_KINDS.map((k) => (
                <Checkbox key={k} value={k} label={t(`webhooks.eventKinds.${k}`)} data-testid={`webhook-kind-${k}`} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
        )}
      />
      <TextInput
        label={t('webhooks.fields.url')}
        type="url"
        required={!base}
        placeholder={base ? base.url : t('webhooks.fields.urlPlaceholder')}
        description={base ? t('webhooks.fields.urlUnchanged') : undefined}
        error={err('url')}
        data-testid="webhook-url"
        {...form.register('url')}
      />
      <Controller
        control={form.control}
        name="authType"
        render={({ field }) => (
          <NativeSelect
            label={t('webhooks.fields.authType')}
            value={field.value}
            onChange={(e) => {
              const v = webhookAuthTypeSchema.safeParse(e.currentTarget.value);
              if (!v.success) return;
              field.onChange(v.data);
              // The fields required depend on the auth type: check them again once the form was submitted.
              if (isSubmitted) void form.trigger(['authUsername', 'authSecret', 'customHeaderName']);
            }}
            onBlur={field.onBlur}
            ref={field.ref}
            error={err('authType')}
            data={WEBHOOK_AUTH_TYPES.map((v) => ({ value: v, label: t(`webhooks.authTypes.${v}`) }))}
            data-testid="webhook-authType"
          />
        )}
      />
      {authType === 'password' && (
        <TextInput
          label={t('webhooks.fields.authUsername')}
          required
          autoComplete="off"
          error={err('authUsername')}
          data-testid="webhook-authUsername"
          {...form.register('authUsername')}
        />
      )}
      {authType === 'custom' && (
        <TextInput
          label={t('webhooks.fields.customHeaderName')}
          required
          placeholder="X-Api-Key"
          autoComplete="off"
          error={err('customHeaderName')}
          data-testid="webhook-customHeaderName"
          {...form.register('customHeaderName')}
        />
      )}
      {authType !== 'none' && (
        <PasswordInput
          label={secretLabel}
          required={!secretKept}
          autoComplete="new-password"
          placeholder={secretKept ? t('webhooks.fields.secretUnchanged') : undefined}
          description={
            secretKept && base?.authSecret ? t('webhooks.fields.secretStored', { masked: base.authSecret }) : undefined
          }
          error={err('authSecret')}
          data-testid="webhook-authSecret"
          {...form.register('authSecret')}
        />
      )}
    </FormShell>
  );
}
