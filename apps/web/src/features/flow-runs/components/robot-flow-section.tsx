import { Button, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import type { FlowRun } from '@portal/contract';
import { useState } from 'react';
import { ListTable, type Column } from '@/components/list-page';
import { BuildingDateTime } from '@/components/time-zone';
import { RECENT_RUNS_PER_PAGE, useActiveRun, useRecentRuns } from '../api';

/** How often the operator screen reads the running flow's step (ms). */
const OPERATOR_POLL_MS = 2000;
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
      <Modal opened={open !== null} onClose={() => setOpen(null)} title={open?.flowName} size="xl" centered>
        {open && <FlowRunPanel runId={open.id} />}
      </Modal>
    </Stack>
  );
}

/** The operator screen's line about the running flow: its name and current step (nothing when none). */
export function RunningFlowLine({ robotId }: { robotId: number }) {
  const { t, stepKind } = useRunWords();
  const { data: run } = useActiveRun(robotId, OPERATOR_POLL_MS);
  if (!run) return null;
  const step = run.currentStepId ? `${stepKind(run.currentStepKind)} (${run.currentStepId})` : '—';
  return (
    <Text size="xs" data-testid="teleop-flow" data-status={run.status} lineClamp={1}>
      <Text span c="dimmed">
        {t('flowRun.operatorCard.label')}:
      </Text>{' '}
      {t(run.status === 'paused' ? 'flowRun.operatorCard.paused' : 'flowRun.operatorCard.value', {
        flow: run.flowName,
        step,
      })}
    </Text>
  );
}
