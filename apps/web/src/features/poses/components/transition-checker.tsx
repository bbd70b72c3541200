import { Alert, Badge, Group, NativeSelect, Paper, Stack, Text } from '@mantine/core';
import { planPoseTransition, type PoseEdge } from '@portal/contract';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { PanelTitle } from '@/components/panel-title';

interface TransitionCheckerProps {
  nodes: ReadonlyArray<{ id: number; name: string }>;
  edges: readonly PoseEdge[];
  from: number | null;
  to: number | null;
  onChange: (from: number | null, to: number | null) => void;
}

/** "Check a transition": the fewest steps from a start pose to a goal pose (contract `planPoseTransition`). */
export function TransitionChecker({ nodes, edges, from, to, onChange }: TransitionCheckerProps) {
  const { t } = useTranslation();
  const name = new Map(nodes.map((n) => [n.id, n.name]));
  const options = [
    { value: '', label: t('poseCommon.choose') },
    ...nodes.map((n) => ({ value: String(n.id), label: n.name })),
  ];
  const valid = (v: number | null) => (v !== null && name.has(v) ? v : null);
  const a = valid(from);
  const b = valid(to);
  const plan = a !== null && b !== null ? planPoseTransition({ nodes, edges }, a, b) : null;
  const pick = (v: string) => (v === '' ? null : Number(v));
  return (
    <Paper withBorder p="md" data-testid="transition-checker">
      <Stack gap="xs">
        <PanelTitle
          title={t('poseNetworks.check.title')}
          description={t('poseNetworks.check.hint')}
          size="h5"
          descriptionSize="sm"
        />
        <Group grow>
          <NativeSelect
            label={t('poseNetworks.check.from')}
            value={a === null ? '' : String(a)}
            data={options}
            onChange={(e) => onChange(pick(e.currentTarget.value), b)}
            data-testid="check-from"
          />
          <NativeSelect
            label={t('poseNetworks.check.to')}
            value={b === null ? '' : String(b)}
            data={options}
            onChange={(e) => onChange(a, pick(e.currentTarget.value))}
            data-testid="check-to"
          />
        </Group>
        <div aria-live="polite" data-testid="check-result">
          {plan === null ? (
            <Text size="sm" c="dimmed">
              {t('poseNetworks.check.choose')}
            </Text>
          ) : !plan.found ? (
            <Alert color="orange" p="xs">
              {t('poseNetworks.check.noPath')}
            </Alert>
          ) : plan.steps === 0 ? (
            <Text size="sm">{t('poseNetworks.check.same')}</Text>
          ) : (
            <Stack gap={4}>
              <Text size="sm" fw={600}>
                {t('poseNetworks.check.steps', { count: plan.steps })}
              </Text>
              <Group gap={6}>
                {plan.path.map((id, i) => (
                  <Fragment key={`${id}-${i}`}>
                    {i > 0 && <Text c="dimmed">→</Text>}
                    <Badge
                      variant={i === 0 || i === plan.path.length - 1 ? 'filled' : 'light'}
                      color="orange"
                      tt="none"
                    >
                      {name.get(id)}
                    </Badge>
                  </Fragment>
                ))}
              </Group>
            </Stack>
          )}
        </div>
      </Stack>
    </Paper>
  );
}
