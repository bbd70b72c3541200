import { Button, Chip, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import type { RobotLogEntry } from '@portal/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { KNOWN_TOPICS, topicName, type LogFilter } from '../log-buffer';

const DIRECTIONS = ['all', 'in', 'out'] as const satisfies ReadonlyArray<LogFilter['direction']>;

interface LogFiltersProps {
  entries: readonly RobotLogEntry[];
  filter: LogFilter;
  onChange: (filter: LogFilter) => void;
}

/** Topic chips (the standard topics and any other seen, with counts), direction and text search. */
export function LogFilters({ entries, filter, onChange }: LogFiltersProps) {
  const { t } = useTranslation();
  const counts = useMemo(() => {
    const m = new Map<string, number>(KNOWN_TOPICS.map((k) => [k, 0]));
    for (const e of entries) {
      const name = topicName(e.topic);
      m.set(name, (m.get(name) ?? 0) + 1);
    }
    return m;
  }, [entries]);

  return (
    <Stack gap="xs">
      <Group gap="xs" align="center">
        <Text size="xs" fw={600} c="dimmed" id="console-log-topics-label">
          {t('consoleScreen.log.topics')}
        </Text>
        <Button
          size="compact-xs"
          variant={filter.topics.length === 0 ? 'filled' : 'default'}
          onClick={() => onChange({ ...filter, topics: [] })}
          aria-pressed={filter.topics.length === 0}
          data-testid="console-log-all-topics"
        >
          {t('consoleScreen.log.allTopics')}
        </Button>
        <Chip.Group multiple value={[...filter.topics]} onChange={(topics) => onChange({ ...filter, topics })}>
          <Group gap={6} role="group" aria-labelledby="console-log-topics-label">
            {[...counts].map(([name, count]) => (
              <Chip key={name} value={name} size="xs" variant="outline">
                {name} ({count})
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      </Group>
      <Group gap="md" align="flex-end">
        <Stack gap={2}>
          <Text size="xs" fw={600} c="dimmed" id="console-log-direction-label">
            {t('consoleScreen.log.direction')}
          </Text>
          <SegmentedControl
            size="xs"
            value={filter.direction}
            onChange={(v) => {
              const direction = DIRECTIONS.find((d) => d === v);
              if (direction) onChange({ ...filter, direction });
            }}
            aria-labelledby="console-log-direction-label"
            data={DIRECTIONS.map((d) => ({
              value: d,
              label: t(`consoleScreen.log.directions.${d}`),
            }))}
            data-testid="console-log-direction"
          />
        </Stack>
        <TextInput
          size="xs"
          label={t('consoleScreen.log.search')}
          placeholder={t('consoleScreen.log.searchPlaceholder')}
          value={filter.search}
          onChange={(e) => onChange({ ...filter, search: e.currentTarget.value })}
          type="search"
          w={260}
          data-testid="console-log-search"
        />
      </Group>
    </Stack>
  );
}
