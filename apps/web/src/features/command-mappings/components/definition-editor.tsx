import {
  ActionIcon,
  Button,
  Checkbox,
  Code,
  Input,
  NativeSelect,
  ScrollArea,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import {
  COMMAND_MAPPING_DEFINITION_VERSION,
  COMMAND_MAPPING_ENTRIES_MAX,
  GAMEPAD_BUTTON_MAX,
  MAPPABLE_KEYS,
  RESERVED_GAMEPAD_BUTTONS,
  type CommandMappingDefinition,
} from '@portal/contract';
import { useState } from 'react';
import { Controller, useFieldArray, useWatch, type Control, type FieldErrors } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { commandKey, keyName, useCommandMappingMessage } from '../words';
import { COMMAND_CHOICES, CommandSettings, defaultCommand } from './command-settings';

export interface CommandMappingFormValues {
  name: string;
  buildingId: number | undefined;
  mode: number;
  memo: string;
  status: 0 | 1;
  definition: CommandMappingDefinition;
}

const GAMEPAD_BUTTONS = Array.from({ length: GAMEPAD_BUTTON_MAX + 1 }, (_, i) => i).filter(
  (b) => !RESERVED_GAMEPAD_BUTTONS.includes(b),
);

/** A message of a nested error (react-hook-form's error tree), if any. */
const messageOf = (e: unknown): string | undefined => {
  const m = (e as { message?: unknown } | undefined)?.message;
  return typeof m === 'string' ? m : undefined;
};

/**
 * The definition editor: a table of rows, each a label, the controls that run it (on-screen button,
 * keyboard key, game controller button) and the command with its settings; a JSON view shows the
 * definition as it is saved. Field rules come from the contract's schema (the form's resolver).
 */
export function DefinitionEditor({
  control,
  errors,
  readOnly,
  serverError,
}: {
  control: Control<CommandMappingFormValues>;
  errors: FieldErrors<CommandMappingFormValues>;
  readOnly?: boolean;
  /** A server message about the definition that no row explains. */
  serverError?: string;
}) {
  const { t } = useTranslation();
  const messageText = useCommandMappingMessage();
  const [view, setView] = useState<'table' | 'json'>('table');
  const { fields, append, remove } = useFieldArray({ control, name: 'definition.entries' });
  const definition = useWatch({ control, name: 'definition' });
  const rowErrors = errors.definition?.entries;
  const listError = messageText(
    messageOf(errors.definition?.entries?.root) ??
      messageOf(errors.definition?.entries) ??
      messageOf(errors.definition),
  );
  const rowError = (i: number, field: 'label' | 'screen' | 'key' | 'gamepadButton' | 'command') => {
    const e = (rowErrors as Record<number, Record<string, unknown> | undefined> | undefined)?.[i]?.[field];
    const nested = e as { action?: unknown; command?: unknown } | undefined;
    return messageText(messageOf(e) ?? messageOf(nested?.action) ?? messageOf(nested?.command));
  };

  return (
    <Input.Wrapper label={t('commandMappings.form.definition')} required error={listError ?? serverError}>
      <Stack gap="xs" mt={4}>
        <SegmentedControl
          size="xs"
          w="max-content"
          value={view}
          onChange={(v) => setView(v === 'json' ? 'json' : 'table')}
          data={[
            { value: 'table', label: t('commandMappings.editor.table') },
            { value: 'json', label: t('commandMappings.editor.json') },
          ]}
          data-testid="cm-view"
        />
        {view === 'json' ? (
          <Stack gap={4}>
            <Text size="xs" c="dimmed">
              {t('commandMappings.editor.jsonHint', { version: COMMAND_MAPPING_DEFINITION_VERSION })}
            </Text>
            <Code block data-testid="cm-json">
              {JSON.stringify(definition, null, 2)}
            </Code>
          </Stack>
        ) : (
          <>
            <ScrollArea type="auto">
              <Table miw={840} verticalSpacing="xs" data-testid="cm-rows">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('commandMappings.editor.label')}</Table.Th>
                    <Table.Th>{t('commandMappings.editor.screen')}</Table.Th>
                    <Table.Th>{t('commandMappings.editor.key')}</Table.Th>
                    <Table.Th>{t('commandMappings.editor.gamepad')}</Table.Th>
                    <Table.Th>{t('commandMappings.editor.command')}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {fields.map((f, i) => (
                    <Table.Tr key={f.id} data-testid={`cm-row-${i}`}>
                      <Table.Td>
                        <Controller
                          control={control}
                          name={`definition.entries.${i}.label`}
                          render={({ field }) => (
                            <TextInput
                              aria-label={`${t('commandMappings.editor.row', { row: i + 1 })} ${t('commandMappings.editor.label')}`}
                              value={field.value}
                              onChange={(e) => field.onChange(e.currentTarget.value)}
                              onBlur={field.onBlur}
                              error={rowError(i, 'label')}
                              miw={110}
                              data-testid={`cm-row-${i}-label`}
                            />
                          )}
                        />
                      </Table.Td>
                      <Table.Td>
                        <Controller
                          control={control}
                          name={`definition.entries.${i}.screen`}
                          render={({ field }) => (
                            <Checkbox
                              aria-label={`${t('commandMappings.editor.row', { row: i + 1 })} ${t('commandMappings.editor.screen')}`}
                              checked={field.value}
                              onChange={(e) => field.onChange(e.currentTarget.checked)}
                              error={rowError(i, 'screen')}
                              disabled={readOnly}
                              data-testid={`cm-row-${i}-screen`}
                            />
                          )}
                        />
                      </Table.Td>
                      <Table.Td>
                        <Controller
                          control={control}
                          name={`definition.entries.${i}.key`}
                          render={({ field }) => (
                            <NativeSelect
                              aria-label={`${t('commandMappings.editor.row', { row: i + 1 })} ${t('commandMappings.editor.key')}`}
                              value={field.value ?? ''}
                              onChange={(e) =>
                                field.onChange(e.currentTarget.value === '' ? null : e.currentTarget.value)
                              }
                              data={[
                                { value: '', label: t('commandMappings.editor.none') },
                                ...MAPPABLE_KEYS.map((k) => ({ value: k, label: keyName(k) })),
                              ]}
                              error={rowError(i, 'key')}
                              miw={72}
                              data-testid={`cm-row-${i}-key`}
                            />
                          )}
                        />
                      </Table.Td>
                      <Table.Td>
                        <Controller
                          control={control}
                          name={`definition.entries.${i}.gamepadButton`}
                          render={({ field }) => (
                            <NativeSelect
                              aria-label={`${t('commandMappings.editor.row', { row: i + 1 })} ${t('commandMappings.editor.gamepad')}`}
                              value={field.value === null ? '' : String(field.value)}
                              onChange={(e) =>
                                field.onChange(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))
                              }
                              data={[
                                { value: '', label: t('commandMappings.editor.none') },
                                ...GAMEPAD_BUTTONS.map((b) => ({
                                  value: String(b),
                                  label: t('commandMappings.editor.button', { button: b }),
                                })),
                              ]}
                              error={rowError(i, 'gamepadButton')}
                              miw={112}
                              data-testid={`cm-row-${i}-gamepad`}
                            />
                          )}
                        />
                      </Table.Td>
                      <Controller
                        control={control}
                        name={`definition.entries.${i}.command`}
                        render={({ field }) => (
                          <Table.Td>
                            <Stack gap={6}>
                              <NativeSelect
                                aria-label={`${t('commandMappings.editor.row', { row: i + 1 })} ${t('commandMappings.editor.command')}`}
                                value={commandKey(field.value)}
                                onChange={(e) => {
                                  const choice = COMMAND_CHOICES.find((c) => c === e.currentTarget.value);
                                  if (choice) field.onChange(defaultCommand(choice));
                                }}
                                data={COMMAND_CHOICES.map((c) => ({
                                  value: c,
                                  label: t(`commandMappings.commands.${c}`),
                                }))}
                                error={rowError(i, 'command')}
                                miw={170}
                                data-testid={`cm-row-${i}-command`}
                              />
                              <CommandSettings
                                value={field.value}
                                onChange={field.onChange}
                                row={i}
                                disabled={readOnly}
                              />
                            </Stack>
                          </Table.Td>
                        )}
                      />
                      <Table.Td>
                        {!readOnly && (
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            onClick={() => remove(i)}
                            aria-label={t('commandMappings.editor.removeRow', { row: i + 1 })}
                            data-testid={`cm-row-${i}-remove`}
                          >
                            ×
                          </ActionIcon>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
            {fields.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('commandMappings.editor.empty')}
              </Text>
            )}
            {!readOnly && (
              <Button
                variant="light"
                size="xs"
                w="max-content"
                disabled={fields.length >= COMMAND_MAPPING_ENTRIES_MAX}
                onClick={() =>
                  append({
                    label: '',
                    screen: true,
                    key: null,
                    gamepadButton: null,
                    command: defaultCommand('speak'),
                  })
                }
                data-testid="cm-add-row"
              >
                {t('commandMappings.editor.addRow')}
              </Button>
            )}
          </>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
