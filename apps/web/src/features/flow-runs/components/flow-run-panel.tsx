import { Alert, Badge, Box, Button, Group, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { isActiveRun, walkSteps, type FlowDefinition, type FlowRunDetail, type FlowRunStep } from '@portal/contract';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { BuildingDateTime } from '@/components/time-zone';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useActiveRun, useFlowRun, useRefreshListsWhenFinal, useRunControl } from '../api';
import { useRunWords } from '../words';
import { RunMap } from './run-map';

export const statusColors: Record<string, string> = {
  running: 'blue',
  paused: 'yellow',
  done: 'green',
  fail: 'red',
  cancel: 'gray',
  unknown: 'gray',
  skip: 'orange',
};

/** A run's status as a badge. */
export function RunStatusBadge({ status, step, testId }: { status: string; step?: boolean; testId?: string }) {
  const words = useRunWords();
  return (
    <Badge
      color={statusColors[status] ?? 'gray'}
      variant="light"
      // Never cut short in a narrow table column.
      style={{ minWidth: 'max-content' }}
      data-testid={testId}
      data-status={status}
    >
      {step ? words.stepResult(status) : words.status(status)}
    </Badge>
  );
}

type FlowRunPanelProps = { runId: number; robotId?: never } | { robotId: number; runId?: never };

/**
 * The progress of a flow run (issue 13): flow name, status, the current step, the definition's steps
 * with the current one highlighted and each step's last result, the floor map, the step record, and
 * Pause / Resume / Cancel. Read every second while the run is active, never again once it is final.
 * Given a robot, it shows the robot's active run (or says there is none).
 */
export function FlowRunPanel(props: FlowRunPanelProps) {
  if (props.runId !== undefined) return <RunById runId={props.runId} />;
  return <ActiveRunOf robotId={props.robotId} />;
}

function ActiveRunOf({ robotId }: { robotId: number }) {
  const { t } = useRunWords();
  const active = useActiveRun(robotId);
  // The last run shown stays (with its result) once it ends, until another one starts.
  const [shown, setShown] = useState<number | null>(null);
  const activeId = active.data?.id ?? null;
  if (activeId !== null && activeId !== shown) setShown(activeId);
  const id = activeId ?? shown;
  if (id !== null) return <RunById key={id} runId={id} />;
  if (active.isPending) return <Loader size="sm" aria-label={t('app.loading')} />;
  if (active.isError) return <QueryError error={active.error} onRetry={() => void active.refetch()} />;
  return (
    <Text c="dimmed" size="sm" data-testid="flow-run-none">
      {t('flowRun.section.none')}
    </Text>
  );
}

function RunById({ runId }: { runId: number }) {
  const { t } = useRunWords();
  const run = useFlowRun(runId);
  useRefreshListsWhenFinal(run.data);
  if (run.isPending) return <Loader size="sm" aria-label={t('app.loading')} />;
  if (run.isError) return <QueryError error={run.error} onRetry={() => void run.refetch()} />;
  return <RunView run={run.data} />;
}

type Loose = { id?: unknown; kind?: unknown; steps?: unknown };
const looseSteps = (steps: unknown, depth = 0): boolean =>
  Array.isArray(steps) &&
  depth <= 8 &&
  steps.every((s: Loose | null) => {
    if (typeof s !== 'object' || s === null || typeof s.id !== 'string' || typeof s.kind !== 'string') return false;
    return s.kind !== 'loop' || looseSteps(s.steps, depth + 1);
  });

/**
 * The definition's steps in order, with their depth (loops before their steps). Read leniently: the run's
 * definition has its library commands expanded (loops of prefixed step ids), which the editor's schema
 * need not accept; only ids, kinds and loops are needed here.
 */
function definitionSteps(definition: unknown) {
  const steps = (definition as { steps?: unknown } | null)?.steps;
  if (!looseSteps(steps)) return null;
  const def = { version: 1, steps } as FlowDefinition;
  return { def, rows: [...walkSteps(def.steps)].map(({ step, path }) => ({ step, depth: (path.length - 2) / 2 })) };
}

/** The newest record of each step (its last pass and attempt). */
function lastRecordByStep(steps: readonly FlowRunStep[]): Map<string, FlowRunStep> {
  const out = new Map<string, FlowRunStep>();
  for (const s of steps) {
    const seen = out.get(s.stepId);
    if (!seen || seen.seq < s.seq) out.set(s.stepId, s);
  }
  return out;
}

const marks: Record<string, string> = { done: '✓', fail: '✗', skip: '↷', cancel: '■', running: '▶', unknown: '?' };

const RECORD_SHOWN = 20;
const nowrap = { whiteSpace: 'nowrap', width: '1%' } as const;

function RunView({ run }: { run: FlowRunDetail }) {
  const words = useRunWords();
  const { t, stepKind, stepResult, errorCode, phase } = words;
  const active = isActiveRun(run.status);
  const definition = definitionSteps(run.definition);
  const last = lastRecordByStep(run.steps);
  const record = [...run.steps].sort((a, b) => b.seq - a.seq).slice(0, RECORD_SHOWN);
  const current = run.currentStepId;
  // An elevator ride's or door passage's phase, as the runner records it while the step goes on.
  const currentRecord = current ? last.get(current) : undefined;
  const currentPhase =
    currentRecord && currentRecord.result === 'running' ? phase(currentRecord.kind, currentRecord.data.phase) : '';

  return (
    <Stack
      gap="sm"
      data-testid="flow-run-panel"
      data-run-id={run.id}
      aria-label={t('flowRun.panel.label', { flow: run.flowName })}
      role="region"
    >
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <div style={{ minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap">
            <Title order={3} size="h4" data-testid="flow-run-flow-name" lineClamp={1}>
              {run.flowName}
            </Title>
            <RunStatusBadge status={run.status} testId="flow-run-status" />
          </Group>
          <Text size="xs" c="dimmed">
            {t('flowRun.panel.robot')}: {run.robotName} · {t('flowRun.panel.startedAt')}:{' '}
            <BuildingDateTime value={run.startedAt} buildingId={run.buildingId} />
            {run.endedAt && (
              <>
                {' '}
                · {t('flowRun.panel.endedAt')}: <BuildingDateTime value={run.endedAt} buildingId={run.buildingId} />
              </>
            )}
          </Text>
        </div>
        {active && <RunControls run={run} />}
      </Group>

      <Text size="sm" data-testid="flow-run-current-step">
        <Text span c="dimmed">
          {t('flowRun.panel.currentStep')}:
        </Text>{' '}
        {current ? `${stepKind(run.currentStepKind)} (${current})` : t('flowRun.panel.noCurrentStep')}
        {currentPhase && ` · ${currentPhase}`}
      </Text>

      {(run.errorCode || run.message) && (
        <Alert color={run.status === 'fail' ? 'red' : 'yellow'} p="xs" data-testid="flow-run-error">
          {[errorCode(run.errorCode), run.message].filter(Boolean).join(' · ')}
        </Alert>
      )}

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
        <Box>
          <Text size="sm" fw={600} mb={4}>
            {t('flowRun.panel.steps')}
          </Text>
          {definition ? (
            <ol style={{ listStyle: 'none', margin: 0, padding: 0 }} data-testid="flow-run-steps">
              {definition.rows.map(({ step, depth }) => {
                const rec = last.get(step.id);
                const isCurrent = step.id === current;
                const result = isCurrent && active ? 'running' : rec?.result;
                return (
                  <li
                    key={step.id}
                    data-testid={`flow-run-step-${step.id}`}
                    data-result={result ?? 'none'}
                    data-current={isCurrent ? 'true' : undefined}
                    aria-current={isCurrent ? 'step' : undefined}
                    style={{
                      paddingLeft: `calc(${depth} * var(--mantine-spacing-md) + 4px)`,
                      paddingBlock: 2,
                      borderRadius: 4,
                      background: isCurrent ? 'var(--mantine-color-orange-light)' : undefined,
                      fontWeight: isCurrent ? 700 : undefined,
                    }}
                  >
                    <Group gap={6} wrap="nowrap">
                      <Text
                        span
                        size="sm"
                        w={16}
                        ta="center"
                        c={result ? statusColors[result] : 'dimmed'}
                        aria-label={result ? stepResult(result) : t('flowRun.panel.stepNotRun')}
                      >
                        {result ? marks[result] : '·'}
                      </Text>
                      <Text span size="sm" lineClamp={1}>
                        {stepKind(step.kind)}
                        {step.kind === 'loop' &&
                          ` ${step.count === null ? t('flowRun.panel.loopForever') : t('flowRun.panel.loopCount', { count: step.count })}`}{' '}
                        <Text span size="xs" c="dimmed">
                          {step.id}
                        </Text>
                      </Text>
                    </Group>
                  </li>
                );
              })}
            </ol>
          ) : (
            <Text size="sm" c="dimmed">
              {t('flowRun.panel.noDefinition')}
            </Text>
          )}
        </Box>
        {definition && <RunMap run={run} definition={definition.def} />}
      </SimpleGrid>

      <Box>
        <Text size="sm" fw={600} mb={4}>
          {t('flowRun.panel.record')}
          {run.steps.length > RECORD_SHOWN && (
            <Text span size="xs" c="dimmed">
              {' '}
              ({t('flowRun.panel.recordNewest', { count: RECORD_SHOWN })})
            </Text>
          )}
        </Text>
        {record.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('flowRun.panel.recordEmpty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table
              striped
              withTableBorder
              verticalSpacing={4}
              fz="sm"
              data-testid="flow-run-record"
              // The badges and numbers keep their width; the step and error columns wrap.
              styles={{ th: { whiteSpace: 'nowrap' } }}
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('flowRun.columns.seq')}</Table.Th>
                  <Table.Th>{t('flowRun.columns.step')}</Table.Th>
                  <Table.Th>{t('flowRun.columns.result')}</Table.Th>
                  <Table.Th>{t('flowRun.columns.attempt')}</Table.Th>
                  <Table.Th>{t('flowRun.columns.error')}</Table.Th>
                  <Table.Th>{t('flowRun.columns.startedAt')}</Table.Th>
                  <Table.Th>{t('flowRun.columns.endedAt')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {record.map((s) => (
                  <Table.Tr key={s.id} data-testid={`flow-run-record-${s.seq}`}>
                    <Table.Td>{s.seq}</Table.Td>
                    <Table.Td>
                      {stepKind(s.kind)}{' '}
                      <Text span size="xs" c="dimmed">
                        {s.stepId}
                        {s.pass !== '' && ` · ${t('flowRun.panel.pass', { pass: s.pass })}`}
                        {phase(s.kind, s.data.phase) && ` · ${phase(s.kind, s.data.phase)}`}
                      </Text>
                    </Table.Td>
                    <Table.Td style={nowrap}>
                      <RunStatusBadge status={s.result} step />
                    </Table.Td>
                    <Table.Td>{s.attempt}</Table.Td>
                    <Table.Td data-testid="flow-run-record-error">
                      {[errorCode(s.errorCode), s.message].filter(Boolean).join(' · ')}
                    </Table.Td>
                    <Table.Td>
                      <BuildingDateTime value={s.startedAt} buildingId={run.buildingId} />
                    </Table.Td>
                    <Table.Td>
                      {s.endedAt && <BuildingDateTime value={s.endedAt} buildingId={run.buildingId} />}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Box>
    </Stack>
  );
}

/** Pause (running) or Resume (paused), and Cancel after a confirmation. */
function RunControls({ run }: { run: FlowRunDetail }) {
  const { t } = useRunWords();
  const errorText = useErrorText();
  const pause = useRunControl('pause');
  const resume = useRunControl('resume');
  const cancel = useRunControl('cancel');
  const [confirming, setConfirming] = useState(false);
  const onError = (e: unknown) => showNotification({ color: 'red', message: errorText(e) });
  return (
    <Group gap="xs">
      {run.status === 'running' ? (
        <Button
          size="xs"
          variant="light"
          loading={pause.isPending}
          onClick={() =>
            pause.mutate(run.id, {
              onError,
              onSuccess: () => showNotification({ color: 'blue', message: t('flowRun.panel.paused') }),
            })
          }
        >
          {t('flowRun.panel.pause')}
        </Button>
      ) : (
        <Button
          size="xs"
          variant="light"
          loading={resume.isPending}
          onClick={() =>
            resume.mutate(run.id, {
              onError,
              onSuccess: () => showNotification({ color: 'blue', message: t('flowRun.panel.resumed') }),
            })
          }
        >
          {t('flowRun.panel.resume')}
        </Button>
      )}
      <Button size="xs" color="red" variant="light" onClick={() => setConfirming(true)}>
        {t('flowRun.panel.cancel')}
      </Button>
      <ConfirmDialog
        opened={confirming}
        title={t('flowRun.panel.cancelTitle')}
        confirmLabel={t('flowRun.panel.cancelConfirm')}
        cancelLabel={t('flowRun.panel.keepRunning')}
        loading={cancel.isPending}
        confirmTestId="flow-run-cancel-confirm"
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          cancel.mutate(run.id, {
            onError,
            onSettled: () => setConfirming(false),
            onSuccess: () => showNotification({ color: 'gray', message: t('flowRun.panel.cancelled') }),
          })
        }
      >
        {t('flowRun.panel.cancelBody', { flow: run.flowName, robot: run.robotName })}
      </ConfirmDialog>
    </Group>
  );
}
