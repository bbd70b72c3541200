import { Button, Collapse, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useConsoleTime } from '../format-time';
import { CopyJsonButton, JsonView } from './json-view';
import { PanelTitle } from '@/components/panel-title';

type Json = Record<string, unknown>;

const pretty = (value: Json | null): string | null => (value === null ? null : JSON.stringify(value, null, 2));

/** The last state message as received, refreshed with each console poll. */
export function StatePanel({
  state,
  loading,
  timeZone,
}: {
  state: Json | null;
  loading: boolean;
  /** The robot's building's zone. */
  timeZone?: string;
}) {
  const { t } = useTranslation();
  const format = useConsoleTime(timeZone);
  // The poll answers the same object while the state did not change (query structural sharing).
  const text = useMemo(() => pretty(state), [state]);
  const timestamp = typeof state?.timestamp === 'string' ? state.timestamp : null;
  return (
    <Paper withBorder p="md" h="100%">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <PanelTitle title={t('consoleScreen.state.title')} description={t('consoleScreen.state.description')} />
          {text !== null && (
            <CopyJsonButton text={text} what={t('consoleScreen.state.title')} testId="console-state-copy" />
          )}
        </Group>
        {timestamp && (
          <Text size="xs" c="dimmed" data-testid="console-state-time">
            {t('consoleScreen.state.receivedAt', { time: format.dateTime(timestamp) })}
          </Text>
        )}
        {loading ? (
          <Loader size="sm" aria-label={t('app.loading')} />
        ) : text === null ? (
          <Text size="sm" c="dimmed" data-testid="console-state-empty">
            {t('consoleScreen.state.empty')}
          </Text>
        ) : (
          <JsonView text={text} maxHeight={480} testId="console-state-json" />
        )}
      </Stack>
    </Paper>
  );
}

/** The last factsheet, folded away until asked for (it is long and rarely changes). */
export function FactsheetPanel({ factsheet, loading }: { factsheet: Json | null; loading: boolean }) {
  const { t } = useTranslation();
  const [opened, { toggle }] = useDisclosure(false);
  const text = useMemo(() => pretty(factsheet), [factsheet]);
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <PanelTitle
            title={t('consoleScreen.factsheet.title')}
            description={t('consoleScreen.factsheet.description')}
          />
          <Group gap="xs">
            {text !== null && (
              <CopyJsonButton text={text} what={t('consoleScreen.factsheet.title')} testId="console-factsheet-copy" />
            )}
            <Button
              size="xs"
              variant="default"
              onClick={toggle}
              aria-expanded={opened}
              aria-controls="console-factsheet-body"
              data-testid="console-factsheet-toggle"
            >
              {opened ? t('consoleScreen.factsheet.hide') : t('consoleScreen.factsheet.show')}
            </Button>
          </Group>
        </Group>
        <Collapse in={opened} id="console-factsheet-body">
          {loading ? (
            <Loader size="sm" aria-label={t('app.loading')} />
          ) : text === null ? (
            <Text size="sm" c="dimmed" data-testid="console-factsheet-empty">
              {t('consoleScreen.factsheet.empty')}
            </Text>
          ) : (
            <JsonView text={text} maxHeight={480} testId="console-factsheet-json" />
          )}
        </Collapse>
      </Stack>
    </Paper>
  );
}
