import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, NativeSelect, PasswordInput, Text, TextInput } from '@mantine/core';
import {
  DISABLED_NOTIF_TARGET_TYPES,
  levelSchema,
  NOTIF_TARGET_LANGUAGES,
  notifTargetInputSchema,
  notifTargetLanguageSchema,
  notifTargetTypeSchema,
  updateNotifTargetBodySchema,
  type NotifTarget,
  type NotifTargetInput,
  type NotifTargetLanguage,
} from '@portal/contract';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormShell, useFormKit } from '@/components/form-page';
import { paths } from '@/config/paths';
import { useCreateNotifTarget } from '../api/create-notif-target';
import { useOrganizationBuildings } from '../api/get-organization-buildings';
import { useUpdateNotifTarget } from '../api/update-notif-target';

/**
 * The request's fields, and whether the stored bot password is to be cleared (the clear button).
 * `language` '' (a new target only): left to the server (the operator's language, else Japanese).
 */
type FormValues = Omit<Required<NotifTargetInput>, 'language'> & {
  language: NotifTargetLanguage | '';
  botPasswordCleared: boolean;
};
const FIELDS = [
  'type',
  'level',
  'buildingId',
  'room',
  'address',
  'botLoginId',
  'botPassword',
  'spaceId',
  'language',
] as const;
/** Webhook and bot URLs are secrets: the server answers them masked and keeps them when an edit omits them. */
const SEALED_TYPES: readonly number[] = [1, 6];
const createResolver = zodResolver(notifTargetInputSchema);
const updateResolver = zodResolver(updateNotifTargetBodySchema);

/** An edit may leave a stored webhook or bot URL as it is, but only while the type stays the same. */
const keepsStoredAddress = (target: NotifTarget | undefined, type: number): target is NotifTarget =>
  target !== undefined && SEALED_TYPES.includes(target.type) && target.type === type;
const TYPES = notifTargetTypeSchema.options.map((o) => o.value);
const LEVELS = levelSchema.options.map((o) => o.value);

const toValues = (n: NotifTarget | undefined): FormValues => ({
  botPasswordCleared: false,
  type: n?.type ?? 0,
  level: n?.level ?? 0,
  buildingId: n?.buildingId ?? null,
  room: n?.room ?? '',
  address: n && !SEALED_TYPES.includes(n.type) ? n.address : '',
  botLoginId: n?.botLoginId ?? '',
  botPassword: '',
  spaceId: n?.spaceId ?? '',
  language: n?.language ?? '',
});

interface NotifTargetFormProps {
  organizationId: number;
  target?: NotifTarget;
  /** Edit: fetches the stored target again (the conflict dialog's answers). */
  onReload?: () => Promise<NotifTarget | undefined>;
}

export function NotifTargetForm({ organizationId, target, onReload }: NotifTargetFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const buildings = useOrganizationBuildings(organizationId);
  const create = useCreateNotifTarget();
  const update = useUpdateNotifTarget();
  const mutation = target ? update : create;
  // An edit is checked with the PATCH body's schema: an empty address there means "unchanged".
  // (Called on validation, once `kit` holds the stored target the values started from.)
  const resolver: Resolver<FormValues> = (input, context, options) => {
    const values = { ...input, language: input.language === '' ? undefined : input.language };
    return keepsStoredAddress(kit.base, values.type)
      ? (updateResolver(
          {
            ...values,
            address: values.address.trim() === '' ? undefined : values.address,
            updatedAt: kit.base.updatedAt,
          },
          context,
          options as never,
        ) as never)
      : (createResolver(values, context, options as never) as never);
  };
  const form = useForm<FormValues>({ resolver, defaultValues: toValues(target) });
  const kit = useFormKit(form, {
    fields: FIELDS,
    duplicateText: t('errors.DUPLICATE'),
    record: target,
    reload: onReload,
    toValues,
  });
  const { err, base } = kit;
  const [type, passwordCleared] = useWatch({ control: form.control, name: ['type', 'botPasswordCleared'] });
  const { isSubmitted } = form.formState;
  const isBot = type === 6;
  const addressType = type === 1 || type === 6 ? type : 0;
  const storedPassword = base?.botPassword ?? null;
  const addressKeepable = keepsStoredAddress(base, type);

  const onSubmit = form.handleSubmit((values) => {
    const typed = values.botPassword;
    // Write-only: '' on the form means "keep", unless the stored one was cleared on purpose.
    const kept = form.getValues('botPasswordCleared') ? '' : undefined;
    const botPassword = isBot ? (typed !== '' ? typed : kept) : storedPassword !== null ? '' : undefined;
    // Validated by the resolver: undefined only while the stored sealed address may be kept.
    const address = values.address as string | undefined;
    const { address: _typed, ...rest } = values;
    const body: Omit<NotifTargetInput, 'address'> & { address?: string } = {
      ...rest,
      ...(address === undefined || address === '' ? {} : { address }),
      botLoginId: isBot ? values.botLoginId : '',
      spaceId: isBot ? values.spaceId : '',
      botPassword,
      // Automatic (a new target): omitted, the server chooses.
      language: values.language === '' ? undefined : values.language,
    };
    const done = kit.saved({
      successText: base ? undefined : t('people.created'),
      onSuccess: () => void navigate(paths.organization.detail.getHref(organizationId)),
    });
    if (base) {
      update.mutate({ organizationId, id: base.id, body: { ...body, updatedAt: base.updatedAt } }, done);
    } else {
      create.mutate({ organizationId, body: { ...body, address: address ?? '' } }, done);
    }
  });

  return (
    <FormShell
      kit={kit}
      onSubmit={onSubmit}
      mutation={mutation}
      label={t('people.notif.title')}
      testId="notif-target-form"
      submitTestId="notif-save"
      createLabel={t('people.create')}
      createCancelTo={paths.organization.detail.getHref(organizationId)}
      maw={640}
    >
      <Group grow align="flex-start">
        <Controller
          control={form.control}
          name="type"
          render={({ field }) => (
            <NativeSelect
              label={t('people.notif.type')}
              value={String(field.value)}
              onChange={(e) => {
                const v = notifTargetTypeSchema.safeParse(Number(e.currentTarget.value));
                if (!v.success) return;
                field.onChange(v.data);
                // The address rule depends on the type: check it again once the form was submitted.
                if (isSubmitted) void form.trigger(['address', 'botLoginId', 'spaceId']);
              }}
              onBlur={field.onBlur}
              ref={field.ref}
              error={err('type')}
              data={TYPES.map((v) => {
                const disabled = DISABLED_NOTIF_TARGET_TYPES.includes(v);
                const name = t(`people.notif.types.${v}`);
                return {
                  value: String(v),
                  label: disabled ? t('people.notif.notAvailable', { type: name }) : name,
                  disabled,
                };
              })}
              data-testid="notif-type"
            />
          )}
        />
        <Controller
          control={form.control}
          name="level"
          render={({ field }) => (
            <NativeSelect
              label={t('people.notif.level')}
              value={String(field.value)}
              onChange={(e) => {
                const v = levelSchema.safeParse(Number(e.currentTarget.value));
                if (v.success) field.onChange(v.data);
              }}
              onBlur={field.onBlur}
              ref={field.ref}
              error={err('level')}
              data={LEVELS.map((v) => ({ value: String(v), label: t(`people.levels.${v}`) }))}
              data-testid="notif-level"
            />
          )}
        />
      </Group>
      <Group grow align="flex-start">
        <Controller
          control={form.control}
          name="buildingId"
          render={({ field }) => (
            <NativeSelect
              label={t('people.notif.building')}
              value={field.value === null ? '' : String(field.value)}
              onChange={(e) => field.onChange(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
              onBlur={field.onBlur}
              ref={field.ref}
              error={err('buildingId')}
              data={[
                { value: '', label: t('people.notif.allBuildings') },
                ...(buildings.data ?? []).map((b) => ({ value: String(b.id), label: b.name })),
                // The stored building while the list loads (or if it is no longer listed).
                ...(field.value !== null && !buildings.data?.some((b) => b.id === field.value)
                  ? [{ value: String(field.value), label: `#${field.value}` }]
                  : []),
              ]}
              data-testid="notif-building"
            />
          )}
        />
        <TextInput label={t('people.notif.room')} error={err('room')} {...form.register('room')} />
      </Group>
      <TextInput
        label={t(`people.notif.addressLabel.${addressType}`)}
        type={addressType === 0 ? 'email' : 'url'}
        required={!addressKeepable}
        placeholder={addressKeepable ? base.address : t(`people.notif.addressPlaceholder.${addressType}`)}
        description={addressKeepable ? t('people.notif.addressUnchanged') : undefined}
        error={err('address')}
        data-testid="notif-address"
        {...form.register('address')}
      />
      {isBot && (
        <>
          <TextInput
            label={t('people.notif.botLoginId')}
            required
            autoComplete="off"
            error={err('botLoginId')}
            data-testid="notif-bot-login"
            {...form.register('botLoginId')}
          />
          <Group align="flex-end" wrap="nowrap">
            <PasswordInput
              style={{ flex: 1 }}
              label={t('people.notif.botPassword')}
              autoComplete="new-password"
              placeholder={
                storedPassword !== null && !passwordCleared ? t('people.notif.botPasswordUnchanged') : undefined
              }
              description={passwordCleared ? t('people.notif.botPasswordCleared') : undefined}
              error={err('botPassword')}
              data-testid="notif-bot-password"
              {...form.register('botPassword')}
            />
            {storedPassword !== null && !passwordCleared && (
              <Button
                variant="default"
                onClick={() => {
                  form.setValue('botPasswordCleared', true, { shouldDirty: true });
                  form.setValue('botPassword', '');
                }}
                data-testid="notif-bot-password-clear"
              >
                {t('people.notif.botPasswordClear')}
              </Button>
            )}
          </Group>
          <TextInput
            label={t('people.notif.spaceId')}
            required
            error={err('spaceId')}
            data-testid="notif-space-id"
            {...form.register('spaceId')}
          />
        </>
      )}
      <Controller
        control={form.control}
        name="language"
        render={({ field }) => (
          <NativeSelect
            label={t('people.notif.language')}
            value={field.value}
            onChange={(e) => {
              const v = e.currentTarget.value;
              if (v === '') field.onChange('');
              else {
                const parsed = notifTargetLanguageSchema.safeParse(v);
                if (parsed.success) field.onChange(parsed.data);
              }
            }}
            onBlur={field.onBlur}
            ref={field.ref}
            error={err('language')}
            data={[
              // A new target may leave it to the server; a stored one has its language.
              ...(base ? [] : [{ value: '', label: t('people.notif.languageAuto') }]),
              ...NOTIF_TARGET_LANGUAGES.map((v) => ({ value: v, label: t(`people.notif.languages.${v}`) })),
            ]}
            data-testid="notif-language"
          />
        )}
      />
      {!isBot && storedPassword !== null && (
        <Text size="xs" c="dimmed">
          {t('people.notif.botPasswordCleared')}
        </Text>
      )}
    </FormShell>
  );
}
