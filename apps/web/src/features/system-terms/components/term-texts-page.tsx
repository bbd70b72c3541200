import { Alert, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import type { EditableTermKind } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/lib/i18n';
import { useTermTexts } from '../api/term-texts';
import { TermTextForm } from './term-text-form';

const KINDS: readonly EditableTermKind[] = ['TOS', 'PP'];

/** System administration: the terms of service and the privacy policy, each in Japanese and English. */
export function TermTextsPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const texts = useTermTexts();
  const [kind, setKind] = useState<EditableTermKind>('TOS');

  return (
    <Stack>
      <Title order={1} size="h2">
        {t('systemTerms.pageTitle')}
      </Title>
      <Text>{t('systemTerms.intro')}</Text>
      {texts.isError && (
        <Alert color="red" role="alert">
          {errorText(texts.error)}
        </Alert>
      )}
      {texts.isPending && <Loader aria-label={t('app.loading')} />}
      {texts.data && (
        <Tabs value={kind} onChange={(v) => v && setKind(v as EditableTermKind)}>
          <Tabs.List>
            {KINDS.map((k) => (
              <Tabs.Tab key={k} value={k} data-testid={`term-tab-${k}`}>
                {t(`systemTerms.kinds.${k}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {KINDS.map((k) => (
            <Tabs.Panel key={k} value={k} pt="md">
              <TermTextForm kind={k} text={texts.data[k]} />
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
    </Stack>
  );
}
