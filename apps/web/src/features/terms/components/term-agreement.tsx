import { Alert, Badge, Box, Button, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { TermDocument } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/lib/i18n';
import { useAgreeTerms } from '../api/agree-terms';
import { useScrolledToEnd } from '../hooks/use-scrolled-to-end';

interface TermAgreementProps {
  documents: TermDocument[];
  onAgreed: () => void;
}

/** The pending documents in one scroll area; Agree is enabled only at its end (spec section 2). */
export function TermAgreement({ documents, onAgreed }: TermAgreementProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const agree = useAgreeTerms();
  const contentKey = documents.map((d) => d.id).join(',');
  const { ref, atEnd, onScroll } = useScrolledToEnd<HTMLDivElement>(contentKey);

  return (
    <Stack>
      <Title order={1} size="h2">
        {t('terms.title')}
      </Title>
      <Text>{t('terms.intro')}</Text>
      <Paper
        withBorder
        p="md"
        ref={ref}
        onScroll={onScroll}
        tabIndex={0}
        role="region"
        aria-label={t('terms.title')}
        data-testid="terms-scroll"
        style={{ maxHeight: '55vh', overflowY: 'auto' }}
      >
        <Stack>
          {documents.map((doc, i) => (
            <Box key={doc.id} component="article">
              {i > 0 && <Divider mb="md" />}
              <Group gap="xs" mb="xs">
                <Title order={2} size="h4">
                  {doc.title}
                </Title>
                <Badge variant="light">{t(`terms.kinds.${doc.kind}`)}</Badge>
                <Text size="sm" c="dimmed">
                  {t('terms.version', { version: doc.version })}
                </Text>
              </Group>
              <Text style={{ whiteSpace: 'pre-wrap' }}>{doc.body}</Text>
            </Box>
          ))}
        </Stack>
      </Paper>
      {agree.isError && (
        <Alert color="red" role="alert">
          {errorText(agree.error)}
        </Alert>
      )}
      {!atEnd && (
        <Text size="sm" c="dimmed" id="terms-scroll-hint">
          {t('terms.scrollHint')}
        </Text>
      )}
      <Group justify="flex-end">
        <Button
          disabled={!atEnd}
          loading={agree.isPending}
          aria-describedby={atEnd ? undefined : 'terms-scroll-hint'}
          data-testid="terms-agree"
          onClick={() => agree.mutate({ documentIds: documents.map((d) => d.id) }, { onSuccess: onAgreed })}
        >
          {t('terms.agree')}
        </Button>
      </Group>
    </Stack>
  );
}
