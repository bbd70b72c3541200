import { Alert, Box, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import type { RobotLogEntry } from '@portal/contract';
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/lib/i18n';
import { useConsoleTime } from '../format-time';
import { CLIENT_LOG_LIMIT, filterLog, noLogFilter, type LogFilter } from '../log-buffer';
import { LogFilters } from './log-filters';
import { LogRow } from './log-row';
import { PanelTitle } from '@/components/panel-title';

interface MessageLogProps {
  entries: readonly RobotLogEntry[];
  missed: number;
  /** The last poll failed (what is shown stays). */
  error: unknown;
  onClear: () => void;
  /** The robot's building's zone (the page states it). */
  timeZone?: string;
}

/** Distance from the bottom (px) still counted as "at the bottom". */
const BOTTOM_SLACK = 24;

/**
 * The messages between the portal and the robot, newest last: filter by topic, direction and text;
 * the list follows new messages until the operator scrolls up, expands one or pauses it.
 */
export function MessageLog({ entries, missed, error, onClear, timeZone }: MessageLogProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const format = useConsoleTime(timeZone);
  const [filter, setFilter] = useState<LogFilter>(noLogFilter);
  const [follow, setFollow] = useState(true);
  const viewport = useRef<HTMLDivElement>(null);
  const visible = useMemo(() => filterLog(entries, filter), [entries, filter]);
  const last = visible.at(-1)?.seq;

  useLayoutEffect(() => {
    const el = viewport.current;
    if (follow && el) el.scrollTop = el.scrollHeight;
  }, [follow, last, visible.length]);

  const onScroll = () => {
    const el = viewport.current;
    if (!el || !follow) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight > BOTTOM_SLACK) setFollow(false);
  };
  // Reading a message while new ones push it away is no use: opening one stops following.
  const onExpand = useCallback(() => setFollow(false), []);

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <PanelTitle
            title={t('consoleScreen.log.title')}
            description={t('consoleScreen.log.description', { limit: CLIENT_LOG_LIMIT })}
          />
          <Group gap="xs">
            <Button
              size="xs"
              variant={follow ? 'light' : 'filled'}
              onClick={() => setFollow((f) => !f)}
              aria-pressed={!follow}
              data-testid="console-log-follow"
            >
              {follow ? t('consoleScreen.log.pause') : t('consoleScreen.log.resume')}
            </Button>
            <Button
              size="xs"
              variant="default"
              onClick={onClear}
              disabled={entries.length === 0}
              data-testid="console-log-clear"
            >
              {t('consoleScreen.log.clear')}
            </Button>
          </Group>
        </Group>
        <LogFilters entries={entries} filter={filter} onChange={setFilter} />
        <Group justify="space-between" gap="xs">
          <Text size="xs" c="dimmed" data-testid="console-log-count">
            {t('consoleScreen.log.count', { shown: visible.length, total: entries.length })}
          </Text>
          {missed > 0 && (
            <Text size="xs" c="orange" data-testid="console-log-missed">
              {t('consoleScreen.log.missed', { count: missed })}
            </Text>
          )}
        </Group>
        {error !== null && error !== undefined && (
          <Alert color="red" p="xs" role="alert" data-testid="console-log-error">
            <Text size="xs">{t('consoleScreen.log.failed', { reason: errorText(error) })}</Text>
          </Alert>
        )}
        <Box
          ref={viewport}
          onScroll={onScroll}
          h={440}
          style={{ overflow: 'auto', border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
          data-testid="console-log"
        >
          <Table
            stickyHeader
            highlightOnHover
            verticalSpacing={2}
            horizontalSpacing="xs"
            fz="xs"
            ff="monospace"
            style={{ tableLayout: 'fixed' }}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={30} aria-label={t('consoleScreen.log.expand')} />
                <Table.Th w={110}>{t('consoleScreen.log.columns.time')}</Table.Th>
                <Table.Th w={84}>{t('consoleScreen.log.columns.direction')}</Table.Th>
                <Table.Th w={120}>{t('consoleScreen.log.columns.topic')}</Table.Th>
                <Table.Th>{t('consoleScreen.log.columns.payload')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {visible.map((entry) => (
                <LogRow key={entry.seq} entry={entry} formatTime={format.time} onExpand={onExpand} />
              ))}
            </Table.Tbody>
          </Table>
          {visible.length === 0 && (
            <Text size="sm" c="dimmed" ta="center" p="md" data-testid="console-log-empty">
              {entries.length === 0 ? t('consoleScreen.log.empty') : t('consoleScreen.log.noMatch')}
            </Text>
          )}
        </Box>
      </Stack>
    </Paper>
  );
}
