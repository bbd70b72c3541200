import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Radio, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import {
  updateTermTextBodySchema,
  type EditableTermKind,
  type TermText,
  type UpdateTermTextBody,
} from '@portal/contract';
import { useCallback } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormShell, useFormKit } from '@/components/form-page';
import { useFormat } from '@/lib/format';
import { useTermTexts, useUpdateTermText } from '../api/term-texts';

type Values = Omit<UpdateTermTextBody, 'baseUpdatedAt'>;
const FIELDS = ['mode', 'version', 'titleJa', 'bodyJa', 'titleEn', 'bodyEn'] as const;
const formSchema = updateTermTextBodySchema.omit({ baseUpdatedAt: true });

/** The next version label a publication suggests: "1.0" → "1.1", "2" → "3", else the same (to be typed). */
export function nextVersionLabel(version: string): string {
  const m = /^(.*?)(\d+)$/.exec(version);
  return m ? `${m[1]}${Number(m[2]) + 1}` : version;
}

const toValues = (text: TermText): Values => ({
  mode: 'publish',
  version: nextVersionLabel(text.version),
  titleJa: text.titleJa,
  titleEn: text.titleEn,
  bodyJa: text.bodyJa,
  bodyEn: text.bodyEn,
});

const EMPTY: Values = { mode: 'publish', version: '1.0', titleJa: '', titleEn: '', bodyJa: '', bodyEn: '' };

/**
 * One document (terms of service or privacy policy) in both languages. Saving either publishes a
 * new version that every operator must agree to again, or corrects the current version in place
 * (agreements stay): the administrator chooses, publishing being the default.
 */
export function TermTextForm({ kind, text }: { kind: EditableTermKind; text: TermText | null }) {
  const { t } = useTranslation();
  const format = useFormat();
  const update = useUpdateTermText(kind);
  const texts = useTermTexts();
  const form = useForm<Values>({
    resolver: zodResolver(formSchema),
    defaultValues: text ? toValues(text) : EMPTY,
  });
  const reload = useCallback(async () => (await texts.refetch()).data?.[kind] ?? undefined, [texts, kind]);
  const kit = useFormKit<Values, TermText>(form, {
    fields: FIELDS,
    record: text ?? undefined,
    reload,
    toValues,
  });
  const { err } = kit;
  const mode = useWatch({ control: form.control, name: 'mode' });
  const base = kit.base;

  const onSubmit = form.handleSubmit((values) =>
    update.mutate(
      { ...values, baseUpdatedAt: base?.updatedAt ?? null },
      kit.saved({
        successText: values.mode === 'publish' ? t('systemTerms.published') : t('systemTerms.corrected'),
      }),
    ),
  );

  const kindName = t(`systemTerms.kinds.${kind}`);
  return (
    <Stack>
      {base ? (
        <Text size="sm" c="dimmed" data-testid={`term-current-${kind}`}>
          {t('systemTerms.current', {
            version: base.version,
            publishedAt: format.dateTime(base.publishedAt),
            count: base.agreedCount,
          })}
        </Text>
      ) : (
        <Alert color="yellow">{t('systemTerms.none')}</Alert>
      )}
      <FormShell
        kit={kit}
        onSubmit={onSubmit}
        mutation={update}
        label={kindName}
        testId={`term-form-${kind}`}
        submitTestId={`term-save-${kind}`}
        submitLabel={mode === 'publish' ? t('systemTerms.publish') : t('systemTerms.correct')}
        maw={960}
      >
        <Controller
          control={form.control}
          name="mode"
          render={({ field }) => (
            <Radio.Group
              label={t('systemTerms.mode')}
              value={field.value}
              onChange={(v) => field.onChange(v)}
              error={err('mode')}
            >
              <Stack gap="xs" mt="xs">
                <Radio
                  value="publish"
                  label={t('systemTerms.modes.publish')}
                  description={t('systemTerms.modes.publishHint')}
                  data-testid={`term-mode-publish-${kind}`}
                />
                <Radio
                  value="correct"
                  disabled={!base}
                  label={t('systemTerms.modes.correct')}
                  description={t('systemTerms.modes.correctHint')}
                  data-testid={`term-mode-correct-${kind}`}
                />
              </Stack>
            </Radio.Group>
          )}
        />
        {mode === 'publish' && (
          <TextInput
            label={t('systemTerms.version')}
            description={t('systemTerms.versionHint', { version: base?.version ?? '-' })}
            error={err('version')}
            maw={240}
            {...form.register('version')}
          />
        )}
        <Title order={2} size="h4">
          {t('systemTerms.japanese')}
        </Title>
        <TextInput label={t('systemTerms.title')} lang="ja" error={err('titleJa')} {...form.register('titleJa')} />
        <Textarea
          label={t('systemTerms.body')}
          lang="ja"
          autosize
          minRows={10}
          maxRows={24}
          error={err('bodyJa')}
          {...form.register('bodyJa')}
        />
        <Title order={2} size="h4">
          {t('systemTerms.english')}
        </Title>
        <TextInput label={t('systemTerms.title')} lang="en" error={err('titleEn')} {...form.register('titleEn')} />
        <Textarea
          label={t('systemTerms.body')}
          lang="en"
          autosize
          minRows={10}
          maxRows={24}
          error={err('bodyEn')}
          {...form.register('bodyEn')}
        />
      </FormShell>
    </Stack>
  );
}
