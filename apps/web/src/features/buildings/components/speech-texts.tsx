import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { speechTextInputSchema, voiceLanguageSchema, type SpeechText } from '@portal/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { FormShell, useFormKit } from '@/components/form-page';
import { useCreateSpeechText } from '../api/create-speech-text';
import { useDeleteSpeechText } from '../api/delete-speech-text';
import { useSpeechTexts } from '../api/get-speech-texts';
import { useUpdateSpeechText } from '../api/update-speech-text';
import { ConfirmDialog } from '@/components/confirm-dialog';

type Draft = z.input<typeof speechTextInputSchema>;
const languages = voiceLanguageSchema.options;
const draftOf = (s: SpeechText): Draft => ({ language: s.language, text: s.text });

interface SpeechTextEditorProps {
  buildingId: number;
  idPrefix: string;
  /** The stored text (edit in its row), or none (the "new text" form). */
  speech?: SpeechText;
  /** Edit: fetches the stored text again (the conflict dialog's answers). */
  onReload?: () => Promise<SpeechText | undefined>;
  /** Edit: closes the row's editor (after a save, Cancel or Escape). */
  onClose?: () => void;
}

/** One speech text's language and text, an inline form on the form kit. */
function SpeechTextEditor({ buildingId, idPrefix, speech, onReload, onClose }: SpeechTextEditorProps) {
  const { t } = useTranslation();
  const create = useCreateSpeechText(buildingId);
  const update = useUpdateSpeechText(buildingId);
  const form = useForm<Draft>({
    resolver: zodResolver(speechTextInputSchema),
    defaultValues: speech ? draftOf(speech) : { language: 'ja', text: '' },
  });
  const kit = useFormKit(form, { fields: ['language', 'text'], record: speech, reload: onReload, toValues: draftOf });
  const { base } = kit;
  const submit = form.handleSubmit((body) => {
    if (base)
      update.mutate({ id: base.id, body: { ...body, updatedAt: base.updatedAt } }, kit.saved({ onSuccess: onClose }));
    else create.mutate(body, kit.saved({ onSuccess: () => form.reset({ language: body.language, text: '' }) }));
  });
  return (
    <FormShell
      kit={kit}
      onSubmit={submit}
      mutation={speech ? update : create}
      label={speech ? t('buildings.speech.editLabel', { text: speech.text }) : t('buildings.speech.newText')}
      submitLabel={speech ? t('buildingCommon.save') : t('buildings.speech.add')}
      inline
      maw="none"
      actions={
        onClose && (
          <Button variant="default" onClick={onClose}>
            {t('buildingCommon.cancel')}
          </Button>
        )
      }
    >
      <NativeSelect
        label={t('buildings.speech.language')}
        id={`${idPrefix}-language`}
        data={languages.map((l) => ({ value: l, label: t(`buildings.speech.languages.${l}`) }))}
        error={kit.err('language')}
        {...form.register('language')}
      />
      <TextInput
        label={t('buildings.speech.text')}
        id={`${idPrefix}-text`}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && onClose) onClose();
        }}
        error={kit.err('text')}
        style={{ flex: 1, minWidth: 220 }}
        {...form.register('text')}
      />
    </FormShell>
  );
}

/** Speech texts of a building: language + text, added, edited and deleted in place. */
export function SpeechTexts({ buildingId, canManage }: { buildingId: number; canManage: boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const list = useSpeechTexts(buildingId);
  const remove = useDeleteSpeechText(buildingId);
  const [editing, setEditing] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<SpeechText | null>(null);

  if (list.isPending) return <PageLoader />;
  if (list.isError) return <QueryError error={list.error} onRetry={() => void list.refetch()} />;

  return (
    <Stack>
      <Title order={2} size="h3">
        {t('buildings.speech.title')}
      </Title>
      {remove.isError && (
        <Alert color="red" role="alert">
          {errorText(remove.error)}
        </Alert>
      )}
      {canManage && (
        <Paper withBorder p="sm" component="section" aria-label={t('buildings.speech.newText')}>
          <SpeechTextEditor buildingId={buildingId} idPrefix="speech-new" />
        </Paper>
      )}
      {list.data.length === 0 ? (
        <Text c="dimmed">{t('buildings.speech.empty')}</Text>
      ) : (
        <Table withTableBorder verticalSpacing="xs" data-testid="speech-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={160}>{t('buildings.speech.language')}</Table.Th>
              <Table.Th>{t('buildings.speech.text')}</Table.Th>
              {canManage && <Table.Th w={110} />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.map((s) =>
              editing === s.id ? (
                <Table.Tr key={s.id}>
                  <Table.Td colSpan={3}>
                    <SpeechTextEditor
                      buildingId={buildingId}
                      idPrefix={`speech-${s.id}`}
                      speech={s}
                      onReload={async () => (await list.refetch()).data?.find((x) => x.id === s.id)}
                      onClose={() => setEditing(null)}
                    />
                  </Table.Td>
                </Table.Tr>
              ) : (
                <Table.Tr key={s.id}>
                  <Table.Td>{t(`buildings.speech.languages.${s.language}`)}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{s.text}</Table.Td>
                  {canManage && (
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('buildings.speech.editLabel', { text: s.text })}
                          onClick={() => setEditing(s.id)}
                        >
                          ✎
                        </ActionIcon>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('buildings.speech.deleteLabel', { text: s.text })}
                          onClick={() => setDeleting(s)}
                        >
                          ✕
                        </ActionIcon>
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ),
            )}
          </Table.Tbody>
        </Table>
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('buildings.speech.deleteTitle')}
        confirmLabel={t('buildingCommon.delete')}
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSettled: () => setDeleting(null),
            onSuccess: () => showNotification({ color: 'green', message: t('buildings.speech.deleted') }),
          })
        }
      >
        {deleting?.text ?? ''}
      </ConfirmDialog>
    </Stack>
  );
}
