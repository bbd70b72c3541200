import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Group,
  List,
  NativeSelect,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  COMMAND_CATEGORIES,
  COMMAND_SCOPES,
  commandInputSchema,
  SYSTEM_ONLY_SCOPES,
  type Command,
  type CommandParameter,
} from '@portal/contract';
import { useMemo, type ReactNode } from 'react';
import { Controller, useFieldArray, useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormShell, LockedFields, useFormKit } from '@/components/form-page';
import { useCreateCommand } from '../api/create-command';
import { useUpdateCommand } from '../api/update-command';
import { checkDefinition, formatDefinition } from './definition-check';
import { useCommandMessage } from './use-command-message';

/** The form's values: the contract's command input, the definition as JSON text. */
export interface CommandFormValues {
  name: string;
  description: string;
  category: number;
  scope: number;
  status: 0 | 1;
  modelsAllowed: string[];
  parameters: CommandParameter[];
  definition: string;
  /** A system command (no organization): system administrators, on create only (the organization is fixed). */
  systemCommand: boolean;
}

/** The contract's schema with the definition checked from its text (the problems are listed under it). */
const formSchema = commandInputSchema.omit({ organizationId: true, definition: true }).extend({
  definition: z.string().refine((text) => checkDefinition(text).ok, 'commands.json.fix'),
  systemCommand: z.boolean(),
});

const fields = [
  'name',
  'description',
  'category',
  'scope',
  'status',
  'modelsAllowed',
  'parameters',
  'definition',
] as const;

export const commandFormValues = (c: Command): CommandFormValues => ({
  name: c.name,
  description: c.description,
  category: c.category,
  scope: c.scope,
  status: c.status === 0 ? 0 : 1,
  modelsAllowed: c.modelsAllowed,
  parameters: c.parameters,
  definition: formatDefinition(c.definition),
  systemCommand: c.organizationId === null,
});

export const emptyCommandForm = (): CommandFormValues => ({
  name: '',
  description: '',
  category: 0,
  scope: 1,
  status: 1,
  modelsAllowed: [],
  parameters: [],
  definition: formatDefinition({ version: 1, steps: [{ kind: 'returnToCharger', id: 's1' }] }),
  systemCommand: false,
});

interface CommandFormProps {
  /** Edit: the stored command. */
  command?: Command;
  /** Edit: fetches the stored command again (the conflict dialog's answers). */
  onReload?: () => Promise<Command | undefined>;
  /** Create: the new command (e.g. go to its page). */
  onCreated?: (command: Command) => void;
  readOnly?: boolean;
  /** System administrators are offered the alpha and development scopes (the server decides). */
  systemAdmin?: boolean;
  /** Buttons at the start of the button row (delete). */
  extraActions?: ReactNode;
  cancelTo?: string;
}

/**
 * A library command on the form kit: name, description, category, scope, status, allowed models,
 * parameter presets and the definition as JSON, checked live with the contract's schema and rules.
 */
export function CommandForm({
  command,
  onReload,
  onCreated,
  readOnly,
  systemAdmin,
  extraActions,
  cancelTo,
}: CommandFormProps) {
  const { t } = useTranslation();
  const message = useCommandMessage();
  const create = useCreateCommand();
  const update = useUpdateCommand();
  const form = useForm<CommandFormValues>({
    resolver: zodResolver(formSchema) as unknown as Resolver<CommandFormValues>,
    defaultValues: command ? commandFormValues(command) : emptyCommandForm(),
  });
  const kit = useFormKit(form, {
    fields,
    record: command,
    reload: onReload,
    toValues: commandFormValues,
    translate: message,
  });
  const base = kit.base;
  const scope = useWatch({ control: form.control, name: 'scope' });
  const definitionText = useWatch({ control: form.control, name: 'definition' }) ?? '';
  const check = useMemo(() => checkDefinition(definitionText), [definitionText]);
  const params = useFieldArray({ control: form.control, name: 'parameters' });

  const submit = form.handleSubmit((values) => {
    const checked = checkDefinition(values.definition);
    if (!checked.ok) return;
    const { systemCommand, ...rest } = values;
    const fields = { ...rest, definition: checked.definition };
    if (base)
      update.mutate(
        { id: base.id, body: { ...fields, updatedAt: base.updatedAt } as never },
        kit.saved({ successText: t('commands.saved') }),
      );
    else
      create.mutate(
        { ...fields, ...(systemAdmin && systemCommand ? { organizationId: null } : {}) } as never,
        kit.saved<Command>({ successText: t('commands.created'), onSuccess: onCreated }),
      );
  });

  const scopes = COMMAND_SCOPES.filter((s) => systemAdmin || !SYSTEM_ONLY_SCOPES.includes(s) || s === scope);
  const format = () => {
    try {
      form.setValue('definition', formatDefinition(JSON.parse(definitionText)), { shouldDirty: true });
    } catch {
      // Not JSON: the problem is shown under the text area.
    }
  };
  const paramError = (i: number, key: keyof CommandParameter) =>
    message(form.formState.errors.parameters?.[i]?.[key]?.message);

  return (
    <FormShell
      kit={kit}
      onSubmit={submit}
      mutation={base ? update : create}
      label={t('commands.listTitle')}
      testId="command-form"
      submitTestId="command-save"
      createLabel={t('commands.create')}
      createCancelTo={cancelTo}
      cancelTo={readOnly ? cancelTo : undefined}
      readOnly={readOnly}
      startActions={extraActions}
      maw={960}
    >
      <LockedFields locked={readOnly}>
        <Stack>
          <TextInput
            label={t('commands.fields.name')}
            required
            {...form.register('name')}
            error={kit.err('name')}
            data-testid="command-name"
          />
          <Textarea
            label={t('commands.fields.description')}
            autosize
            minRows={2}
            {...form.register('description')}
            error={kit.err('description')}
            data-testid="command-description"
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Controller
              control={form.control}
              name="category"
              render={({ field }) => (
                <NativeSelect
                  label={t('commands.fields.category')}
                  value={String(field.value)}
                  onChange={(e) => field.onChange(Number(e.currentTarget.value))}
                  data={COMMAND_CATEGORIES.map((c) => ({
                    value: String(c),
                    label: t(`commands.categories.${c}` as 'commands.categories.0'),
                  }))}
                  error={kit.err('category')}
                  data-testid="command-category"
                />
              )}
            />
            <Controller
              control={form.control}
              name="scope"
              render={({ field }) => (
                <NativeSelect
                  label={t('commands.fields.scope')}
                  value={String(field.value)}
                  onChange={(e) => field.onChange(Number(e.currentTarget.value))}
                  data={scopes.map((s) => ({
                    value: String(s),
                    label: t(`commands.scopes.${s}` as 'commands.scopes.0'),
                  }))}
                  error={kit.err('scope')}
                  data-testid="command-scope"
                />
              )}
            />
          </SimpleGrid>
          <Controller
            control={form.control}
            name="status"
            render={({ field }) => (
              <Switch
                label={t('commands.fields.status')}
                checked={field.value === 1}
                onChange={(e) => field.onChange(e.currentTarget.checked ? 1 : 0)}
                data-testid="command-status"
              />
            )}
          />
          {systemAdmin && (
            <Controller
              control={form.control}
              name="systemCommand"
              render={({ field }) => (
                <Switch
                  label={t('commands.fields.systemCommand')}
                  description={t('commands.fields.systemCommandHint')}
                  checked={field.value}
                  disabled={base !== undefined}
                  onChange={(e) => field.onChange(e.currentTarget.checked)}
                  data-testid="command-system"
                />
              )}
            />
          )}
          <Controller
            control={form.control}
            name="modelsAllowed"
            render={({ field }) => (
              <TagsInput
                label={t('commands.fields.modelsAllowed')}
                description={t('commands.fields.modelsHint')}
                value={field.value}
                onChange={field.onChange}
                error={kit.err('modelsAllowed')}
                data-testid="command-models"
              />
            )}
          />
          <Paper withBorder p="sm">
            <Stack gap="xs">
              <Title order={3} size="h5">
                {t('commands.fields.parameters')}
              </Title>
              {params.fields.length === 0 && (
                <Text c="dimmed" size="sm">
                  {t('commands.parameter.none')}
                </Text>
              )}
              {params.fields.map((p, i) => (
                <Group key={p.id} align="flex-start" wrap="wrap" data-testid={`command-param-${i}`}>
                  <TextInput
                    label={t('commands.parameter.name')}
                    {...form.register(`parameters.${i}.name`)}
                    error={paramError(i, 'name')}
                    w={180}
                    data-testid={`command-param-${i}-name`}
                  />
                  <Controller
                    control={form.control}
                    name={`parameters.${i}.type`}
                    render={({ field }) => (
                      <NativeSelect
                        label={t('commands.parameter.type')}
                        value={field.value}
                        onChange={(e) => {
                          const type = e.currentTarget.value as CommandParameter['type'];
                          field.onChange(type);
                          form.setValue(`parameters.${i}.preset`, null, { shouldDirty: true });
                        }}
                        data={(['string', 'number', 'boolean'] as const).map((ty) => ({
                          value: ty,
                          label: t(`commands.parameter.types.${ty}`),
                        }))}
                        data-testid={`command-param-${i}-type`}
                      />
                    )}
                  />
                  <PresetInput index={i} form={form} error={paramError(i, 'preset')} />
                  <Button
                    variant="subtle"
                    color="red"
                    mt={24}
                    onClick={() => params.remove(i)}
                    data-testid={`command-param-${i}-remove`}
                  >
                    {t('commands.parameter.remove')}
                  </Button>
                </Group>
              ))}
              {kit.err('parameters') && (
                <Text c="red" size="sm">
                  {kit.err('parameters')}
                </Text>
              )}
              {!readOnly && (
                <Group>
                  <Button
                    variant="light"
                    size="xs"
                    onClick={() => params.append({ name: '', type: 'string', preset: null })}
                    data-testid="command-param-add"
                  >
                    {t('commands.parameter.add')}
                  </Button>
                </Group>
              )}
            </Stack>
          </Paper>
          <Stack gap={4}>
            <Group justify="space-between" align="flex-end">
              <Text size="sm" fw={500}>
                {t('commands.fields.definition')}
              </Text>
              {!readOnly && (
                <Button variant="subtle" size="xs" onClick={format} data-testid="command-definition-format">
                  {t('commands.json.format')}
                </Button>
              )}
            </Group>
            <Textarea
              aria-label={t('commands.fields.definition')}
              description={t('commands.fields.definitionHint')}
              autosize
              minRows={8}
              maxRows={30}
              styles={{ input: { fontFamily: 'monospace', fontSize: 13 } }}
              {...form.register('definition')}
              error={kit.err('definition')}
              data-testid="command-definition"
            />
            <DefinitionProblems check={check} />
          </Stack>
        </Stack>
      </LockedFields>
    </FormShell>
  );
}

function DefinitionProblems({ check }: { check: ReturnType<typeof checkDefinition> }) {
  const { t } = useTranslation();
  const message = useCommandMessage();
  if (check.ok)
    return (
      <Text c="green" size="sm" data-testid="command-definition-valid">
        {t('commands.json.valid')}
      </Text>
    );
  return (
    <Alert color="red" variant="light" p="xs" data-testid="command-definition-problems">
      {check.jsonError !== undefined ? (
        <Text size="sm">{t('commands.json.invalid', { reason: check.jsonError })}</Text>
      ) : (
        <List size="sm">
          {check.problems.map((p, i) => (
            <List.Item key={i}>
              {p.path && <code>{p.path}</code>} {message(p.message, p.params)}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}

/** A parameter's preset, by its type (null: none). */
function PresetInput({
  index,
  form,
  error,
}: {
  index: number;
  form: ReturnType<typeof useForm<CommandFormValues>>;
  error?: string;
}) {
  const { t } = useTranslation();
  const type = useWatch({ control: form.control, name: `parameters.${index}.type` });
  const testId = `command-param-${index}-preset`;
  return (
    <Controller
      control={form.control}
      name={`parameters.${index}.preset`}
      render={({ field }) =>
        type === 'number' ? (
          <NumberInput
            label={t('commands.parameter.preset')}
            value={typeof field.value === 'number' ? field.value : ''}
            onChange={(v) => field.onChange(typeof v === 'number' ? v : v === '' ? null : Number(v))}
            error={error}
            w={140}
            data-testid={testId}
          />
        ) : type === 'boolean' ? (
          <NativeSelect
            label={t('commands.parameter.preset')}
            value={field.value === true ? 'true' : field.value === false ? 'false' : ''}
            onChange={(e) => {
              const v = e.currentTarget.value;
              field.onChange(v === '' ? null : v === 'true');
            }}
            data={[
              { value: '', label: '—' },
              { value: 'true', label: t('commands.parameter.yes') },
              { value: 'false', label: t('commands.parameter.no') },
            ]}
            error={error}
            data-testid={testId}
          />
        ) : (
          <TextInput
            label={t('commands.parameter.preset')}
            value={typeof field.value === 'string' ? field.value : ''}
            onChange={(e) => field.onChange(e.currentTarget.value)}
            error={error}
            w={220}
            data-testid={testId}
          />
        )
      }
    />
  );
}
