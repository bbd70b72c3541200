import { Button, Code, CopyButton, ScrollArea } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A copy-to-clipboard button for a JSON text (`what` names it for screen readers). */
export function CopyJsonButton({ text, what, testId }: { text: string; what: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <CopyButton value={text} timeout={1500}>
      {({ copied, copy }) => (
        <Button
          size="xs"
          variant={copied ? 'filled' : 'light'}
          color={copied ? 'teal' : undefined}
          onClick={copy}
          aria-label={t('consoleScreen.copyLabel', { what })}
          data-testid={testId}
        >
          {copied ? t('consoleScreen.copied') : t('consoleScreen.copy')}
        </Button>
      )}
    </CopyButton>
  );
}

/** Pretty-printed JSON in a scrolling monospace block. */
export function JsonView({ text, maxHeight, testId }: { text: string; maxHeight: number; testId?: string }) {
  return (
    <ScrollArea.Autosize mah={maxHeight} type="auto" offsetScrollbars>
      <Code block fz="xs" data-testid={testId} style={{ whiteSpace: 'pre', overflowWrap: 'normal' }}>
        {text}
      </Code>
    </ScrollArea.Autosize>
  );
}
