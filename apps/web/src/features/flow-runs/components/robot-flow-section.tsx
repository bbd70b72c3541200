import { Button, Group, Modal, Paper, ScrollArea, Stack, Text, Title } from '@mantine/core';
import type { FlowRun } from '@portal/contract';
import { useState } from 'react';
import { ListTable, type Column } from '@/components/list-page';
import { BuildingDateTime } from '@/components/time-zone';
import { RECENT_RUNS_PER_PAGE, useRecentRuns } from '../api';
import { useRunWords } from '../words';
import { FlowRunPanel, RunStatusBadge } from './flow-run-panel';
import { RunFlowButton } from './start-run';

interface RobotRef {
  id: number;
  name: string;
  buildingId: number;
}

/**
 * The robot page's flow section: the robot's active run with its progress and controls, a "Run flow"
 * button (a flow of the robot's building) and the robot's recent runs (each opens its record).
 */
export function RobotFlowSection({ robot }: { robot: RobotRef }) {
  const { t } = useRunWords();
  return (
    <Paper withBorder p="md" data-testid="robot-flow-section">
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('flowRun.section.title')}
          </Title>
          <RunFlowButton robot={robot} />
        </Group>
        <FlowRunPanel robotId={robot.id} />
        <RecentRuns robot={robot} />
      </Stack>
    </Paper>
  );
}

function RecentRuns({ robot }: { robot: RobotRef }) {
  const { t } = useRunWords();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<FlowRun | null>(null);
  const runs = useRecentRuns(robot.id, page);
  const columns: Column<FlowRun>[] = [
    {
      id: 'flowName',
      header: t('flowRun.columns.flow'),
      cell: ({ row }) => row.original.flowName,
      meta: { rowHeader: true },
    },
    {
      id: 'status',
      header: t('flowRun.columns.status'),
      cell: ({ row }) => <RunStatusBadge status={row.original.status} />,
    },
    {
      id: 'startedAt',
      header: t('flowRun.columns.startedAt'),
      cell: ({ row }) => <BuildingDateTime value={row.original.startedAt} buildingId={row.original.buildingId} />,
    },
    {
      id: 'endedAt',
      header: t('flowRun.columns.endedAt'),
      cell: ({ row }) =>
        row.original.endedAt && <BuildingDateTime value={row.original.endedAt} buildingId={row.original.buildingId} />,
    },
    {
      id: 'open',
      header: '',
      cell: ({ row }) => (
        <Button
          size="compact-xs"
          variant="subtle"
          onClick={() => setOpen(row.original)}
          aria-label={`${t('flowRun.panel.openRun')}: ${row.original.flowName}`}
        >
          {t('flowRun.panel.openRun')}
        </Button>
      ),
    },
  ];
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {t('flowRun.section.recent')}
      </Text>
      <ListTable
        query={runs}
        columns={columns}
        rowId={(r) => r.id}
        rowProps={(r) => ({ 'data-testid': `flow-run-row-${r.id}` })}
        empty={t('flowRun.section.recentEmpty')}
        emptyTestId="flow-runs-empty"
        paging={{ page, perPage: RECENT_RUNS_PER_PAGE, onPage: setPage }}
        minWidth={560}
        data-testid="flow-runs-table"
      />
      <Modal
        opened={open !== null}
        onClose={() => setOpen(null)}
        title={open?.flowName}
        size="xl"
        centered
        scrollAreaComponent={ScrollArea.Autosize}
      >
        {open && <FlowRunPanel runId={open.id} />}
      </Modal>
    </Stack>
  );
}
