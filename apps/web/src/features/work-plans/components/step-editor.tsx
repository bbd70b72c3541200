import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Menu,
  NativeSelect,
  NumberInput,
  Paper,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  MAIN_KINDS_OF,
  WORK_PLAN_AUX_KINDS,
  WORK_PLAN_STEP_TYPES,
  type WorkPlanAuxiliary,
  type WorkPlanDefinition,
  type WorkPlanMain,
  type WorkPlanStep,
  type WorkPlanStepType,
} from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { useFloorWaypoints } from '../api';
import { BlockFields, freshId, newBlock, type WorkPlanBlock } from './blocks';

type Text = (key: string, options?: Record<string, unknown>) => string;

interface StepEditorProps {
  value: WorkPlanDefinition;
  onChange: (next: WorkPlanDefinition) => void;
  /** The work plan's building and floor (waypoints, speech texts); null for a template (waypoints stay open). */
  place: { buildingId: number; floorId: number } | null;
  /** The message of a path inside the definition (`steps.0.main.waypointId`), already translated. */
  issueAt: (path: string) => string | undefined;
  readOnly?: boolean;
}

const taken = (def: WorkPlanDefinition): Set<string> => {
  const ids = new Set<string>();
  for (const s of def.steps) {
    ids.add(s.id);
    if (s.main.kind === 'pose') ids.add(s.main.id);
    for (const a of s.auxiliary) ids.add(a.id);
    if (s.before.pose) ids.add(s.before.pose.id);
  }
  return ids;
};

type Step = WorkPlanBlock;

/** The main action a step type starts with. */
function mainFor(type: WorkPlanStepType, id: string): WorkPlanMain {
  if (type === 'move') return { kind: 'moveToWaypoint', waypointId: null };
  if (type === 'manual') return { kind: 'manualCheck', instruction: '' };
  void id;
  return { kind: 'pressButton', target: '' };
}

/**
 * The work plan step editor (/workplan/create, /workplan/{id}, /workplan/create-template): each step
 * as a card with its title, type, main action, auxiliary actions, the pose before and the wait
 * after. Speech, photo, lights and pose are the flow editor's blocks (StepFields), with the same
 * choices (the building's speech texts, pose definitions, cameras).
 */
export function StepEditor({ value, onChange, place, issueAt, readOnly }: StepEditorProps) {
  const { t: tt, i18n } = useTranslation();
  const t = tt as unknown as Text;
  const language = i18n.language === 'en' ? 'en' : 'ja';
  const waypoints = useFloorWaypoints(place && place.floorId > 0 ? place.floorId : null);
  const steps = value.steps;
  const set = (next: WorkPlanStep[]) => onChange({ ...value, steps: next });
  const setStep = (i: number, patch: Partial<WorkPlanStep>) =>
    set(steps.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  const move = (i: number, by: number) => {
    const next = [...steps];
    const [s] = next.splice(i, 1);
    next.splice(i + by, 0, s!);
    set(next);
  };
  const add = () => {
    const id = freshId('step', taken(value));
    set([
      ...steps,
      {
        id,
        title: t('workPlans.steps.step', { n: steps.length + 1 }),
        type: 'move',
        main: mainFor('move', id),
        auxiliary: [],
        before: { pose: null },
        after: { waitSeconds: 0 },
      },
    ]);
  };

  return (
    <Stack gap="sm" data-testid="wp-steps">
      <Group justify="space-between">
        <Title order={3} size="h4">
          {t('workPlans.steps.title')}
        </Title>
        {!readOnly && (
          <Button variant="light" size="xs" onClick={add} data-testid="wp-step-add">
            {t('workPlans.steps.add')}
          </Button>
        )}
      </Group>
      {issueAt('steps') && (
        <Text c="red" size="sm">
          {issueAt('steps')}
        </Text>
      )}
      {steps.length === 0 && (
        <Text c="dimmed" size="sm" data-testid="wp-steps-empty">
          {t('workPlans.steps.empty')}
        </Text>
      )}
      {steps.map((s, i) => (
        <StepCard
          key={s.id}
          step={s}
          index={i}
          count={steps.length}
          waypoints={waypoints}
          language={language}
          place={place}
          t={t}
          issueAt={(p) => issueAt(`steps.${i}.${p}`)}
          readOnly={readOnly}
          takenIds={() => taken(value)}
          onChange={(patch) => setStep(i, patch)}
          onMove={(by) => move(i, by)}
          onRemove={() => set(steps.filter((_, j) => j !== i))}
        />
      ))}
    </Stack>
  );
}

interface StepCardProps {
  step: WorkPlanStep;
  index: number;
  count: number;
  waypoints: Array<{ id: number; name: string }>;
  language: 'ja' | 'en';
  place: StepEditorProps['place'];
  t: Text;
  issueAt: (path: string) => string | undefined;
  readOnly?: boolean;
  takenIds: () => Set<string>;
  onChange: (patch: Partial<WorkPlanStep>) => void;
  onMove: (by: number) => void;
  onRemove: () => void;
}

function StepCard({
  step: s,
  index: i,
  count,
  waypoints,
  language,
  place,
  t,
  issueAt,
  readOnly,
  takenIds,
  onChange,
  onMove,
  onRemove,
}: StepCardProps) {
  const floorId = place?.floorId ?? null;
  const block = (step: Step, path: string, change: (next: Step) => void) => (
    <BlockFields
      step={step}
      onChange={change}
      buildingId={place?.buildingId ?? 0}
      floorId={floorId}
      fieldError={(f) => issueAt(`${path}.${f}`)}
      readOnly={readOnly}
    />
  );
  const main = s.main;

  return (
    <Paper withBorder p="sm" data-testid={`wp-step-${i}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs">
            <Badge variant="light">{i + 1}</Badge>
            <Text fw={600}>{t(`workPlans.steps.types.${s.type}`)}</Text>
          </Group>
          {!readOnly && (
            <Group gap={4}>
              <ActionIcon
                variant="subtle"
                aria-label={t('workPlans.steps.moveUp')}
                disabled={i === 0}
                onClick={() => onMove(-1)}
              >
                ↑
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                aria-label={t('workPlans.steps.moveDown')}
                disabled={i === count - 1}
                onClick={() => onMove(1)}
              >
                ↓
              </ActionIcon>
              <Button variant="subtle" color="red" size="xs" onClick={onRemove} data-testid={`wp-step-${i}-remove`}>
                {t('workPlans.steps.remove')}
              </Button>
            </Group>
          )}
        </Group>
        <Group grow align="flex-start">
          <TextInput
            label={t('workPlans.steps.stepTitle')}
            required
            value={s.title}
            readOnly={readOnly}
            error={issueAt('title')}
            onChange={(e) => onChange({ title: e.currentTarget.value })}
            data-testid={`wp-step-${i}-title`}
          />
          <NativeSelect
            label={t('workPlans.steps.type')}
            value={s.type}
            disabled={readOnly}
            data={WORK_PLAN_STEP_TYPES.map((x) => ({ value: x, label: t(`workPlans.steps.types.${x}`) }))}
            onChange={(e) => {
              const type = WORK_PLAN_STEP_TYPES.find((x) => x === e.currentTarget.value) ?? 'move';
              onChange({ type, main: MAIN_KINDS_OF[type].includes(s.main.kind) ? s.main : mainFor(type, s.id) });
            }}
            data-testid={`wp-step-${i}-type`}
          />
        </Group>
        <Paper bg="var(--mantine-color-default-hover)" p="xs">
          <Stack gap="xs">
            <Text size="sm" fw={600}>
              {t('workPlans.steps.main')}
            </Text>
            {s.type === 'move' && (
              <NativeSelect
                label={t('workPlans.steps.mainKinds.moveToWaypoint') + ' / ' + t('workPlans.steps.mainKinds.pose')}
                value={main.kind}
                disabled={readOnly}
                data={MAIN_KINDS_OF.move.map((k) => ({ value: k, label: t(`workPlans.steps.mainKinds.${k}`) }))}
                onChange={(e) =>
                  onChange({
                    main:
                      e.currentTarget.value === 'pose'
                        ? (newBlock('pose', freshId('pose', takenIds()), language) as unknown as WorkPlanMain)
                        : { kind: 'moveToWaypoint', waypointId: null },
                  })
                }
                data-testid={`wp-step-${i}-main-kind`}
              />
            )}
            {main.kind === 'moveToWaypoint' &&
              (place === null ? (
                <Text size="sm" c="dimmed" data-testid={`wp-step-${i}-waypoint-open`}>
                  {t('workPlans.steps.waypoint')}: {t('workPlans.steps.waypointOpen')}
                </Text>
              ) : (
                <NativeSelect
                  label={t('workPlans.steps.waypoint')}
                  required
                  value={main.waypointId === null ? '' : String(main.waypointId)}
                  disabled={readOnly}
                  error={issueAt('main.waypointId')}
                  description={waypoints.length === 0 ? t('workPlans.steps.noMap') : undefined}
                  data={[
                    { value: '', label: t('workPlans.steps.waypointOpen'), disabled: true },
                    ...(main.waypointId !== null && !waypoints.some((w) => w.id === main.waypointId)
                      ? [{ value: String(main.waypointId), label: `#${main.waypointId}` }]
                      : []),
                    ...waypoints.map((w) => ({ value: String(w.id), label: w.name })),
                  ]}
                  onChange={(e) =>
                    onChange({
                      main: {
                        kind: 'moveToWaypoint',
                        waypointId: e.currentTarget.value === '' ? null : Number(e.currentTarget.value),
                      },
                    })
                  }
                  data-testid={`wp-step-${i}-waypoint`}
                />
              ))}
            {main.kind === 'pose' &&
              block(main as unknown as Step, 'main', (next) => onChange({ main: next as unknown as WorkPlanMain }))}
            {main.kind === 'pressButton' && (
              <TextInput
                label={t('workPlans.steps.target')}
                required
                placeholder={t('workPlans.steps.targetHint')}
                value={main.target}
                readOnly={readOnly}
                error={issueAt('main.target')}
                onChange={(e) => onChange({ main: { kind: 'pressButton', target: e.currentTarget.value } })}
                data-testid={`wp-step-${i}-target`}
              />
            )}
            {main.kind === 'manualCheck' && (
              <Textarea
                label={t('workPlans.steps.instruction')}
                required
                autosize
                minRows={2}
                value={main.instruction}
                readOnly={readOnly}
                error={issueAt('main.instruction')}
                onChange={(e) => onChange({ main: { kind: 'manualCheck', instruction: e.currentTarget.value } })}
                data-testid={`wp-step-${i}-instruction`}
              />
            )}
          </Stack>
        </Paper>
        <Group justify="space-between">
          <Text size="sm" fw={600}>
            {t('workPlans.steps.auxiliary')}
          </Text>
          {!readOnly && (
            <Menu position="bottom-end">
              <Menu.Target>
                <Button variant="subtle" size="xs" data-testid={`wp-step-${i}-aux-add`}>
                  {t('workPlans.steps.addAuxiliary')}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {WORK_PLAN_AUX_KINDS.map((k) => (
                  <Menu.Item
                    key={k}
                    onClick={() =>
                      onChange({
                        auxiliary: [
                          ...s.auxiliary,
                          newBlock(k, freshId(k, takenIds()), language) as unknown as WorkPlanAuxiliary,
                        ],
                      })
                    }
                    data-testid={`wp-step-${i}-aux-add-${k}`}
                  >
                    {t(`workPlans.steps.auxKinds.${k}`)}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
        {s.auxiliary.map((a, j) => (
          <Paper key={a.id} withBorder p="xs" data-testid={`wp-step-${i}-aux-${j}`}>
            <Group justify="space-between" mb={4}>
              <Text size="sm">{t(`workPlans.steps.auxKinds.${a.kind}`)}</Text>
              {!readOnly && (
                <Button
                  variant="subtle"
                  color="red"
                  size="compact-xs"
                  aria-label={t('workPlans.steps.removeAux')}
                  onClick={() => onChange({ auxiliary: s.auxiliary.filter((_, k) => k !== j) })}
                >
                  ×
                </Button>
              )}
            </Group>
            {block(a as unknown as Step, `auxiliary.${j}`, (next) =>
              onChange({
                auxiliary: s.auxiliary.map((x, k) => (k === j ? (next as unknown as WorkPlanAuxiliary) : x)),
              }),
            )}
          </Paper>
        ))}
        <Group grow align="flex-start">
          <Stack gap={4}>
            <Switch
              label={t('workPlans.steps.before')}
              checked={s.before.pose !== null}
              disabled={readOnly}
              onChange={(e) =>
                onChange({
                  before: {
                    pose: e.currentTarget.checked
                      ? (newBlock(
                          'pose',
                          freshId('pose', takenIds()),
                          language,
                        ) as unknown as WorkPlanStep['before']['pose'])
                      : null,
                  },
                })
              }
              data-testid={`wp-step-${i}-before`}
            />
            {s.before.pose &&
              block(s.before.pose as unknown as Step, 'before.pose', (next) =>
                onChange({ before: { pose: next as unknown as WorkPlanStep['before']['pose'] } }),
              )}
          </Stack>
          <NumberInput
            label={t('workPlans.steps.after')}
            min={0}
            max={3600}
            allowDecimal={false}
            value={s.after.waitSeconds}
            readOnly={readOnly}
            error={issueAt('after.waitSeconds')}
            onChange={(v) => onChange({ after: { waitSeconds: typeof v === 'number' ? v : 0 } })}
            data-testid={`wp-step-${i}-wait`}
          />
        </Group>
      </Stack>
    </Paper>
  );
}
