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
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { useErrorText, useMessageText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useCreateSpeechText } from '../api/create-speech-text';
import { useDeleteSpeechText } from '../api/delete-speech-text';
import { useSpeechTexts } from '../api/get-speech-texts';
import { useUpdateSpeechText } from '../api/update-speech-text';
import { ConfirmDialog } from '@/components/confirm-dialog';

type Language = z.infer<typeof voiceLanguageSchema>;
type Draft = { language: Language; text: string };
const languages = voiceLanguageSchema.options;

/** Validates a draft with the contract schema; answers the text's error key or the body. */
const check = (d: Draft) => {
  const r = speechTextInputSchema.safeParse(d);
  return r.success ? { body: r.data, error: undefined } : { body: null, error: r.error.issues[0]?.message };
};

function SpeechTextEditor({
  initial,
  submitLabel,
  pending,
  onSubmit,
  onCancel,
  idPrefix,
}: {
  initial: Draft;
  submitLabel: string;
  pending: boolean;
  onSubmit: (body: Draft) => Promise<unknown>;
  onCancel?: () => void;
  idPrefix: string;
}) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const [draft, setDraft] = useState<Draft>(initial);
  const [error, setError] = useState<string | undefined>();
  const submit = async () => {
    const { body, error: e } = check(draft);
    setError(e);
    if (!body) return;
    await onSubmit(body)
      .then(() => {
        if (!onCancel) setDraft({ language: draft.language, text: '' });
      })
      .catch(() => undefined);
  };
  return (
    <Group align="flex-start" wrap="wrap" gap="xs">
      <NativeSelect
        label={t('buildings.speech.language')}
        id={`${idPrefix}-language`}
        value={draft.language}
        onChange={(e) => setDraft({ ...draft, language: voiceLanguageSchema.parse(e.currentTarget.value) })}
        data={languages.map((l) => ({ value: l, label: t(`buildings.speech.languages.${l}`) }))}
      />
      <TextInput
        label={t('buildings.speech.text')}
        id={`${idPrefix}-text`}
        value={draft.text}
        onChange={(e) => setDraft({ ...draft, text: e.currentTarget.value })}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            void submit();
          }
          if (e.key === 'Escape' && onCancel) onCancel();
        }}
        error={messageText(error)}
        style={{ flex: 1, minWidth: 220 }}
      />
      <Group gap="xs" mt={25}>
        <Button onClick={() => void submit()} loading={pending}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button variant="default" onClick={onCancel}>
            {t('buildingCommon.cancel')}
          </Button>
        )}
      </Group>
    </Group>
  );
}

/** Speech texts of a building: language + text, added, edited and deleted in place. */
export function SpeechTexts({ buildingId, canManage }: { buildingId: number; canManage: boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const list = useSpeechTexts(buildingId);
  const create = useCreateSpeechText(buildingId);
  const update = useUpdateSpeechText(buildingId);
  const remove = useDeleteSpeechText(buildingId);
  const [editing, setEditing] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<SpeechText | null>(null);
  const failed = [create, update, remove].find((m) => m.isError);

  if (list.isPending) return <PageLoader />;
  if (list.isError) return <QueryError error={list.error} onRetry={() => void list.refetch()} />;

  return (
    <Stack>
      <Title order={2} size="h3">
        {t('buildings.speech.title')}
      </Title>
      {failed && (
        <Alert color="red" role="alert">
          {errorText(failed.error)}
        </Alert>
      )}
      {canManage && (
        <Paper withBorder p="sm" component="section" aria-label={t('buildings.speech.newText')}>
          <SpeechTextEditor
            idPrefix="speech-new"
            initial={{ language: 'ja', text: '' }}
            submitLabel={t('buildings.speech.add')}
            pending={create.isPending}
            onSubmit={(body) => create.mutateAsync(body)}
          />
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
                      idPrefix={`speech-${s.id}`}
                      initial={{ language: s.language, text: s.text }}
                      submitLabel={t('buildingCommon.save')}
                      pending={update.isPending}
                      onCancel={() => setEditing(null)}
                      onSubmit={(body) =>
                        update
                          .mutateAsync({ id: s.id, body: { ...body, updatedAt: s.updatedAt } })
                          .then(() => setEditing(null))
                      }
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
