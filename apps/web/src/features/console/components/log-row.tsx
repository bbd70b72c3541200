import { ActionIcon, Badge, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { ROBOT_LOG_PAYLOAD_MAX, type RobotLogEntry } from '@portal/contract';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { prettyPayload } from '../log-buffer';
import { JsonView } from './json-view';

const arrows = { in: '↓', out: '↑' } as const;
const arrowColors = { in: 'blue', out: 'grape' } as const;

interface LogRowProps {
  entry: RobotLogEntry;
  formatTime: (iso: string) => string;
  onExpand: () => void;
}

/**
 * One message: time, direction, topic and a one-line preview that opens to the whole payload.
 * Memoised: a poll adds rows without rendering the ones already shown.
 */
export const LogRow = memo(function LogRow({ entry, formatTime, onExpand }: LogRowProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const toggle = () => {
    if (!open) onExpand();
    setOpen((o) => !o);
  };
  const label = open ? t('consoleScreen.log.collapse') : t('consoleScreen.log.expand');
  const bodyId = `console-log-body-${entry.seq}`;
  return (
    <>
      <Table.Tr data-testid="console-log-entry" data-seq={entry.seq} data-topic={entry.topic}>
        <Table.Td>
          <ActionIcon
            size="xs"
            variant="subtle"
            color="gray"
            onClick={toggle}
            aria-label={label}
            aria-expanded={open}
            aria-controls={open ? bodyId : undefined}
          >
            <span aria-hidden="true">{open ? '▾' : '▸'}</span>
          </ActionIcon>
        </Table.Td>
        <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(entry.at)}</Table.Td>
        <Table.Td data-direction={entry.direction}>
          <Text
            span
            inherit
            fw={700}
            c={arrowColors[entry.direction]}
            title={t(`consoleScreen.log.directions.${entry.direction}`)}
          >
            <span aria-hidden="true">{arrows[entry.direction]}</span>
            <VisuallyHidden>{t(`consoleScreen.log.directions.${entry.direction}`)}</VisuallyHidden>
          </Text>
        </Table.Td>
        <Table.Td style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {entry.topic}
        </Table.Td>
        <Table.Td style={{ overflow: 'hidden' }}>
          <UnstyledButton onClick={toggle} w="100%" title={label} tabIndex={-1}>
            <Text size="xs" ff="monospace" truncate="end" c="dimmed">
              {entry.truncated && (
                <Badge size="xs" color="yellow" variant="light" mr={4} component="span">
                  {t('consoleScreen.log.truncated')}
                </Badge>
              )}
              {entry.payload.slice(0, 300)}
            </Text>
          </UnstyledButton>
        </Table.Td>
      </Table.Tr>
      {open && (
        <Table.Tr id={bodyId}>
          <Table.Td colSpan={5}>
            {entry.truncated && (
              <Text size="xs" c="yellow.8" mb={4}>
                {t('consoleScreen.log.truncatedNote', { max: ROBOT_LOG_PAYLOAD_MAX })}
              </Text>
            )}
            <JsonView text={prettyPayload(entry)} maxHeight={320} testId="console-log-payload" />
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
});
