import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Grid,
  Group,
  List,
  NativeSelect,
  Paper,
  Stack,
  Text,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import type { StepKind } from '@portal/contract';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useText } from './text';
import { checkFlowDefinition, mainParameter, type DefinitionProblem } from '../components/definition';
import { useFlowMessage } from '../components/use-flow-message';
import { PathPreview } from './path-preview';
import { robotProblems, useRobotCheck, type RobotCheck } from './robot-check';
import { presets, StepFields, type CameraChoice } from './step-fields';
import {
  allIds,
  definitionText,
  duplicateStep,
  eachStep,
  fits,
  floorsAtSteps,
  freshId,
  insertStep,
  moveStep,
  newStep,
  nudgeStep,
  PALETTE,
  parseDefinitionText,
  removeStep,
  stepAt,
  stepKey,
  updateStep,
  type Slot,
  type Step,
  type StepPath,
} from './tree';
import { useBuilderData, type BuilderData } from './use-builder-data';

interface FlowBuilderProps {
  /** The definition's JSON text (the form's value): read on every render, written after every edit. */
  text: string;
  onText: (text: string) => void;
  buildingId: number;
  /** The flow's floor (where it starts). */
  floorId: number;
  /** The server's refusals of this text, shown at their steps too. */
  serverProblems: readonly DefinitionProblem[];
  readOnly?: boolean;
  /**
   * The robot the builder checks the flow for (null: any robot), kept by the caller so the choice
   * outlives a switch to the JSON tab; without it the builder keeps its own.
   */
  checkRobotId?: number | null;
  onCheckRobotId?: (robotId: number | null) => void;
}

/** What is being dragged: a block (its path) or a palette entry. */
type Drag = { type: 'step'; path: number[] } | { type: 'new'; kind: StepKind; commandId?: number };

/** A problem with the step it belongs to (null: the whole flow) and its field within the step. */
interface Placed {
  key: string | null;
  field: string;
  text: string;
  /** A step the chosen robot cannot do (shown at the step; the flow can still be saved). */
  robot?: boolean;
}

const keyToPath = (key: string): number[] =>
  key
    .split('.')
    .filter((p) => /^\d+$/.test(p))
    .map(Number);

/** "2.1": a step's number as shown (loops' steps numbered inside their loop). */
const numberOf = (path: StepPath) => path.map((i) => i + 1).join('.');

/**
 * The visual builder of the flow editor (issue 13): a command palette by category, the steps as
 * blocks (drag to reorder, into and out of loops; up/down buttons for keyboard and touch; duplicate;
 * delete), the selected step's parameters in a form made for its kind, live validation at each
 * block with a summary, and a preview of the path on the floor maps. It edits the definition's JSON
 * text, so the advanced JSON view and the save stay as they are.
 */
export function FlowBuilder({
  text,
  onText,
  buildingId,
  floorId,
  serverProblems,
  readOnly,
  checkRobotId,
  onCheckRobotId,
}: FlowBuilderProps) {
  const { t, language, exists } = useText();
  const [ownRobotId, setOwnRobotId] = useState<number | null>(null);
  const robotCheck = useRobotCheck(buildingId, checkRobotId !== undefined ? checkRobotId : ownRobotId);
  const setRobotId = onCheckRobotId ?? setOwnRobotId;
  const message = useFlowMessage();
  const parsed = useMemo(() => parseDefinitionText(text), [text]);
  const steps = useMemo(() => parsed ?? [], [parsed]);
  const check = useMemo(() => checkFlowDefinition(text), [text]);
  const [selected, setSelected] = useState<string | null>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [announcement, setAnnouncement] = useState('');
  // After a button moved, copied or deleted a step, the focus goes to the same control of its block.
  const [focus, setFocus] = useState<{ key: string; control: 'up' | 'down' | 'select' } | null>(null);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!focus || !root.current) return;
    const find = (control: string) =>
      root.current?.querySelector<HTMLButtonElement>(`[data-testid="flow-step-${control}-${focus.key}"]`);
    const target = find(focus.control);
    (target && !target.disabled ? target : find('select'))?.focus();
    setFocus(null);
  }, [focus, text]);

  const startFloor = floorId > 0 ? floorId : null;
  const floorAt = useMemo(() => floorsAtSteps(steps, startFloor), [steps, startFloor]);
  const floorIds = useMemo(() => {
    const ids = startFloor === null ? [] : [startFloor];
    for (const { step } of eachStep(steps))
      if (step.kind === 'moveToFloor' && typeof step.floorId === 'number') ids.push(step.floorId);
    return ids;
  }, [steps, startFloor]);
  const data = useBuilderData(buildingId, floorIds);
  const kindName = (kind: string) =>
    exists(`flowEditor.kinds.${kind}`) ? t(`flowEditor.kinds.${kind}`) : t('flowEditor.builder.unknown', { kind });
  const chosenName = robotCheck.chosen?.name;
  const cameras = useMemo(
    (): CameraChoice => ({
      list: robotCheck.cameras,
      unavailable: (name) =>
        t(`flowEditor.builder.robot.${chosenName === undefined ? 'notOnRobots' : 'notOnRobot'}`, {
          camera: name,
          robot: chosenName,
        }),
    }),
    [robotCheck.cameras, chosenName, t],
  );
  const robot = robotCheck.robot;
  const robotIssues = useMemo(
    () => (robot ? robotProblems(text, robot, data.commands) : []),
    [text, robot, data.commands],
  );

  // Every problem at its step: the schema and rules (as the JSON view), the server's, and the maps'.
  const placed = useMemo((): Placed[] => {
    const keys = [...eachStep(steps)].map(({ path }) => stepKey(path));
    // A capability in words: "camera:thermal" -> "the Thermal camera".
    const capability = (c: string) => {
      if (!c.startsWith('camera:')) return t(`flowValidation.capabilities.${c}`, { defaultValue: c });
      const id = c.slice('camera:'.length);
      return t('flowValidation.capabilities.camera', {
        camera: t(`flowEditor.builder.cameras.${id}`, { defaultValue: id }),
      });
    };
    const robotSet = new Set(robotIssues);
    const place = (p: DefinitionProblem): Placed => {
      const key = keys.filter((k) => p.path === k || p.path.startsWith(`${k}.`)).sort((a, b) => b.length - a.length)[0];
      const params =
        p.message === 'flowValidation.capability' && p.params?.capability
          ? { ...p.params, capability: capability(p.params.capability) }
          : p.params;
      return {
        key: key ?? null,
        field: key ? p.path.slice(key.length + 1) : p.path,
        text: message(p.message, params) ?? p.message,
        ...(robotSet.has(p) ? { robot: true } : {}),
      };
    };
    const problems: DefinitionProblem[] = [...(check.ok ? [] : check.problems), ...serverProblems, ...robotIssues];
    // A waypoint or route not on the loaded map of the floor the robot is on (the server's check, early).
    for (const { step, path } of eachStep(steps)) {
      const key = stepKey(path);
      const floor = step.kind === 'moveToFloor' ? step.floorId : floorAt.get(key);
      const map = typeof floor === 'number' ? data.mapOf.get(floor) : undefined;
      if (!map) continue;
      const wp = step.kind === 'moveToWaypoint' || step.kind === 'moveToFloor' ? step.waypointId : undefined;
      if (typeof wp === 'number' && !map.document.waypoints.some((w) => w.id === wp))
        problems.push({ path: `${key}.waypointId`, message: 'flowValidation.notOnFloor' });
      if (
        step.kind === 'followRoute' &&
        typeof step.routeId === 'number' &&
        !map.document.routes.some((r) => r.id === step.routeId)
      )
        problems.push({ path: `${key}.routeId`, message: 'flowValidation.notOnFloor' });
    }
    const seen = new Set<string>();
    return problems
      .filter((p) => {
        const id = `${p.path}|${p.message}|${JSON.stringify(p.params ?? {})}`;
        if (seen.has(id)) return false;
        seen.add(id);
        return true;
      })
      .map(place);
  }, [check, serverProblems, robotIssues, steps, floorAt, data.mapOf, message, t]);

  // The blocks' handlers: one stable object calling the latest ones (so unchanged blocks skip rendering).
  const latest = useRef<BlockActions | null>(null);
  const actions = useMemo<BlockActions>(
    () => ({
      select: (key) => latest.current?.select(key),
      dragStart: (e, path) => latest.current?.dragStart(e, path),
      dragEnd: () => latest.current?.dragEnd(),
      dragOver: (e) => latest.current?.dragOver(e),
      drop: (e, slot) => latest.current?.drop(e, slot),
      up: (path) => latest.current?.up(path),
      down: (path) => latest.current?.down(path),
      duplicate: (path) => latest.current?.duplicate(path),
      remove: (path) => latest.current?.remove(path),
    }),
    [],
  );

  const commit = (next: Step[], select?: number[] | null) => {
    onText(definitionText(next));
    if (select !== undefined) setSelected(select === null ? null : stepKey(select));
  };

  /** Where a palette entry goes: into the selected loop, after the selected step, or at the end. */
  const slotForNew = (): Slot => {
    const path = selected ? keyToPath(selected) : null;
    const s = path ? stepAt(steps, path) : undefined;
    if (!path || !s) return { parent: [], index: steps.length };
    if (s.kind === 'loop') return { parent: path, index: (s.steps as Step[]).length };
    return { parent: path.slice(0, -1), index: path[path.length - 1]! + 1 };
  };

  /** The floor the robot is on where a new step goes (after the step before it). */
  const floorBefore = (slot: Slot): number | null => {
    const before = slot.index > 0 ? [...slot.parent, slot.index - 1] : slot.parent.length > 0 ? slot.parent : null;
    if (!before) return startFloor;
    const s = stepAt(steps, before);
    if (s?.kind === 'moveToFloor' && slot.index > 0) return typeof s.floorId === 'number' ? s.floorId : null;
    return floorAt.get(stepKey(before)) ?? null;
  };

  const create = (kind: StepKind, slot: Slot, commandId?: number): Step => {
    const floor = floorBefore(slot);
    const doc = floor === null ? undefined : data.mapOf.get(floor)?.document;
    const used = new Set<number>();
    for (const { step } of eachStep(steps)) if (typeof step.waypointId === 'number') used.add(step.waypointId);
    const waypoints = (doc?.waypoints ?? []).filter((w) => w.type !== 99);
    const id = freshId(kind, allIds(steps));
    const lang = language.startsWith('ja') ? 'ja' : 'en';
    const step = newStep(kind, id, {
      waypointId: (waypoints.find((w) => !used.has(w.id)) ?? waypoints[0])?.id,
      routeId: doc?.routes[0]?.id,
      otherFloorId: data.floors.find((f) => f.id !== undefined && f.id !== floor)?.id,
      checkItemId: data.checkItems.find((c) => c.floorId === floor)?.id,
      speechTextId: data.speechTexts[0]?.id,
      language: lang,
      speech: t('flowEditor.builder.defaults.speech'),
      taskName: t('flowEditor.builder.defaults.taskName'),
      message: t('flowEditor.builder.defaults.message'),
    });
    // A new camera step uses a camera the chosen robot (or one of the building's robots) has.
    if ((kind === 'takePhoto' || kind === 'cameraSettings') && !cameras.list.includes(step.camera as never)) {
      const first = cameras.list[0];
      if (first) return { ...step, camera: first } as Step;
    }
    if (kind === 'command' && commandId !== undefined) {
      const command = data.commands.find((c) => c.id === commandId);
      const parameters = command ? presets(command.parameters) : undefined;
      return { ...step, commandId, ...(parameters ? { parameters } : {}) } as Step;
    }
    return step;
  };

  const add = (kind: StepKind, slot: Slot, commandId?: number) => {
    const step = create(kind, slot, commandId);
    const ok = fits(steps, step, slot.parent) ? slot : { parent: [], index: steps.length };
    const path = [...ok.parent, ok.index];
    commit(insertStep(steps, ok, step), path);
    setAnnouncement(t('flowEditor.builder.added', { kind: kindName(kind), number: numberOf(path) }));
  };

  const applyMove = (result: { steps: Step[]; path: number[] } | null, control?: 'up' | 'down') => {
    if (!result) return;
    commit(result.steps, result.path);
    if (control) setFocus({ key: stepKey(result.path), control });
    setAnnouncement(t('flowEditor.builder.moved', { number: numberOf(result.path) }));
  };

  const dropAt = (slot: Slot) => {
    if (!drag || readOnly) return;
    if (drag.type === 'new') add(drag.kind, slot, drag.commandId);
    else applyMove(moveStep(steps, drag.path, slot));
    setDrag(null);
  };

  const dropProps = (slot: () => Slot) => ({
    onDragOver: (e: DragEvent) => {
      if (drag && !readOnly) {
        e.preventDefault();
        e.stopPropagation();
      }
    },
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      e.stopPropagation();
      dropAt(slot());
    },
  });

  const handlers: BlockActions = {
    select: (key) => setSelected((k) => (k === key ? null : key)),
    dragStart: (e, path) => {
      e.stopPropagation();
      e.dataTransfer.effectAllowed = 'move';
      e.dataTransfer.setData('text/plain', stepKey(path));
      setDrag({ type: 'step', path });
    },
    dragEnd: () => setDrag(null),
    dragOver: (e) => dropProps(() => ({ parent: [], index: 0 })).onDragOver(e),
    drop: (e, slot) => dropProps(() => slot).onDrop(e),
    up: (path) => applyMove(nudgeStep(steps, path, -1), 'up'),
    down: (path) => applyMove(nudgeStep(steps, path, 1), 'down'),
    duplicate: (path) => {
      const r = duplicateStep(steps, path);
      commit(r.steps, r.path);
      setFocus({ key: stepKey(r.path), control: 'select' });
    },
    remove: (path) => {
      const next = removeStep(steps, path);
      commit(next, null);
      // The step now in its place, else the one before it, else its loop.
      const parent = path.slice(0, -1);
      const i = path[path.length - 1]!;
      const after = stepAt(next, path) ? path : i > 0 ? [...parent, i - 1] : parent;
      if (after.length > 0) setFocus({ key: stepKey(after), control: 'select' });
      setAnnouncement(t('flowEditor.builder.removed', { number: numberOf(path) }));
    },
  };

  useLayoutEffect(() => {
    latest.current = handlers;
  });

  if (parsed === null)
    return (
      <Alert color="orange" data-testid="flow-builder-not-blocks">
        {t('flowEditor.builder.notBlocks')}
      </Alert>
    );

  const issuesAt = (key: string) => placed.filter((p) => p.key === key);
  const selectedPath = selected ? keyToPath(selected) : null;
  const selectedStep = selectedPath ? stepAt(steps, selectedPath) : undefined;
  // The preview's waypoints set the selected step's waypoint (on the floor where it picks from).
  const pickFloorId =
    readOnly || !selectedStep || !selected
      ? null
      : selectedStep.kind === 'moveToWaypoint'
        ? (floorAt.get(selected) ?? null)
        : selectedStep.kind === 'moveToFloor' && typeof selectedStep.floorId === 'number'
          ? selectedStep.floorId
          : null;

  const renderList = (list: readonly Step[], parent: number[]): ReactNode => {
    const inTask = inTaskFlags(list);
    return (
      <Stack gap={6} component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
        {list.map((s, i) => {
          const path = [...parent, i];
          return (
            <StepBlock
              key={stepKey(path)}
              step={s}
              path={path}
              inTask={inTask[i] ?? false}
              siblings={list.length}
              selected={selected === stepKey(path)}
              issues={issuesAt(stepKey(path))}
              kind={kindName(s.kind)}
              summary={summaryOf(s, data, floorAt.get(stepKey(path)) ?? null)}
              readOnly={readOnly}
              dragging={drag?.type === 'step' && stepKey(drag.path) === stepKey(path)}
              actions={actions}
              fields={
                selected === stepKey(path) ? (
                  <StepFields
                    step={s}
                    onChange={(next) => commit(updateStep(steps, path, next))}
                    data={data}
                    floorId={floorAt.get(stepKey(path)) ?? null}
                    fieldError={(field) =>
                      issuesAt(stepKey(path))
                        .filter((p) => p.field === field)
                        .map((p) => p.text)
                        .join(' / ') || undefined
                    }
                    readOnly={readOnly}
                    cameras={cameras}
                  />
                ) : null
              }
              body={
                s.kind === 'loop' ? (
                  <Box pl="md" pt={4}>
                    {renderList((s.steps as Step[]) ?? [], path)}
                    {!readOnly && (
                      <DropZone
                        label={t('flowEditor.builder.dropInLoop')}
                        active={drag !== null}
                        testId={`flow-drop-${stepKey(path)}`}
                        {...dropProps(() => ({ parent: path, index: ((s.steps as Step[]) ?? []).length }))}
                      />
                    )}
                  </Box>
                ) : null
              }
            />
          );
        })}
      </Stack>
    );
  };

  const floorName = (id: number) => data.floors.find((f) => f.id === id)?.name ?? `#${id}`;

  return (
    <Grid data-testid="flow-builder" ref={root}>
      <Grid.Col span={12}>
        <RobotChoice check={robotCheck} onChange={setRobotId} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 3 }}>
        <Palette
          data={data}
          readOnly={readOnly}
          kindName={kindName}
          onAdd={(kind, commandId) => add(kind, slotForNew(), commandId)}
          onDragStart={(d) => setDrag(d)}
          onDragEnd={() => setDrag(null)}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <Paper withBorder p="sm" data-testid="flow-blocks">
          <Title order={3} size="h5" mb="xs">
            {t('flowEditor.builder.steps')}
          </Title>
          <VisuallyHidden aria-live="polite" data-testid="flow-builder-announcement">
            {announcement}
          </VisuallyHidden>
          {steps.length === 0 && (
            <Text size="sm" c="dimmed" mb="xs">
              {t('flowEditor.builder.empty')}
            </Text>
          )}
          {renderList(steps, [])}
          {!readOnly && (
            <DropZone
              label={t('flowEditor.builder.dropEnd')}
              active={drag !== null}
              testId="flow-drop-end"
              {...dropProps(() => ({ parent: [], index: steps.length }))}
            />
          )}
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 3 }}>
        <Stack>
          <Summary
            placed={placed}
            robotName={chosenName}
            steps={steps}
            kindName={kindName}
            jsonError={check.ok ? undefined : check.jsonError}
            onSelect={setSelected}
          />
          <PathPreview
            steps={steps}
            startFloorId={startFloor}
            mapOf={data.mapOf}
            checkItems={data.checkItems}
            floorName={floorName}
            selectedKey={selected}
            pickFloorId={pickFloorId}
            onPick={(waypointId) => {
              if (!selectedPath || !selectedStep) return;
              commit(updateStep(steps, selectedPath, { ...selectedStep, waypointId } as Step));
            }}
          />
        </Stack>
      </Grid.Col>
    </Grid>
  );
}

/** The outline's main parameter, without what is not filled in yet. */
const main = (step: Step): string => {
  const m = mainParameter(step);
  return m.includes('undefined') ? '' : m;
};

/** A block's one-line description: kind-specific, with the map's and building's names. */
function summaryOf(step: Step, data: BuilderData, floor: number | null): string {
  const map = (f: number | null) => (f === null ? undefined : data.mapOf.get(f)?.document);
  const wp = (f: number | null, id: unknown) => map(f)?.waypoints.find((w) => w.id === id)?.name;
  switch (step.kind) {
    case 'moveToWaypoint':
      return wp(floor, step.waypointId) ?? main(step);
    case 'followRoute':
      return map(floor)?.routes.find((r) => r.id === step.routeId)?.name ?? main(step);
    case 'moveToFloor': {
      const f = typeof step.floorId === 'number' ? step.floorId : null;
      const name = data.floors.find((x) => x.id === f)?.name;
      return name ? `${name} / ${wp(f, step.waypointId) ?? `#${String(step.waypointId ?? '')}`}` : main(step);
    }
    case 'speak':
      return step.speechTextId !== undefined
        ? (data.speechTexts.find((x) => x.id === step.speechTextId)?.text ?? main(step))
        : main(step);
    case 'command':
      return data.commands.find((c) => c.id === step.commandId)?.name ?? main(step);
    case 'loop':
      return '';
    default:
      return main(step);
  }
}

function DropZone({
  label,
  active,
  testId,
  ...handlers
}: {
  label: string;
  active: boolean;
  testId: string;
  onDragOver: (e: DragEvent) => void;
  onDrop: (e: DragEvent) => void;
}) {
  return (
    <Box
      {...handlers}
      mt={6}
      p={6}
      style={{
        border: `1px dashed var(--mantine-color-${active ? 'blue-5' : 'gray-4'})`,
        borderRadius: 4,
        textAlign: 'center',
      }}
      data-testid={testId}
    >
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    </Box>
  );
}

/** Which steps of a list are between a task start and its task complete (shown indented). */
function inTaskFlags(list: readonly Step[]): boolean[] {
  let open = false;
  return list.map((s) => {
    if (s.kind === 'taskComplete') open = false;
    const inside = open;
    if (s.kind === 'taskStart') open = true;
    return inside;
  });
}

interface StepBlockProps {
  step: Step;
  path: number[];
  inTask: boolean;
  siblings: number;
  selected: boolean;
  issues: Placed[];
  /** The kind's name. */
  kind: string;
  summary: string;
  readOnly?: boolean;
  dragging: boolean;
  actions: BlockActions;
  fields: ReactNode;
  body: ReactNode;
}

interface BlockActions {
  select: (key: string) => void;
  dragStart: (e: DragEvent, path: number[]) => void;
  dragEnd: () => void;
  dragOver: (e: DragEvent) => void;
  drop: (e: DragEvent, slot: Slot) => void;
  up: (path: number[]) => void;
  down: (path: number[]) => void;
  duplicate: (path: number[]) => void;
  remove: (path: number[]) => void;
}

/**
 * A block renders again only when what it shows changed: a step that is not selected and not a loop
 * (a loop shows its steps) with the same parameters, problems, name and place is left as it is.
 */
const sameBlock = (a: StepBlockProps, b: StepBlockProps): boolean =>
  !a.selected &&
  !b.selected &&
  a.step.kind !== 'loop' &&
  b.step.kind !== 'loop' &&
  stepKey(a.path) === stepKey(b.path) &&
  a.siblings === b.siblings &&
  a.inTask === b.inTask &&
  a.kind === b.kind &&
  a.summary === b.summary &&
  a.readOnly === b.readOnly &&
  a.dragging === b.dragging &&
  a.actions === b.actions &&
  a.issues.map((x) => x.text).join('\n') === b.issues.map((x) => x.text).join('\n') &&
  JSON.stringify(a.step) === JSON.stringify(b.step);

const StepBlock = memo(function StepBlock(p: StepBlockProps) {
  const { t } = useText();
  const key = stepKey(p.path);
  const number = numberOf(p.path);
  const parent = p.path.slice(0, -1);
  const index = p.path[p.path.length - 1]!;
  const kind = p.kind;
  const bad = p.issues.length > 0;
  const isLoop = p.step.kind === 'loop';
  const atTop = p.path.length === 1;
  // A drop on a leaf's lower half goes after it; on a loop's header, before it (its body has a zone).
  const drop = {
    onDragOver: p.actions.dragOver,
    onDrop: (e: DragEvent) => {
      const rect = (e.currentTarget as HTMLElement).getBoundingClientRect();
      const after = !isLoop && rect.height > 0 && e.clientY > rect.top + rect.height / 2;
      p.actions.drop(e, { parent, index: after ? index + 1 : index });
    },
  };
  return (
    <Paper
      component="li"
      withBorder
      px="sm"
      py={6}
      style={{
        borderColor: bad ? 'var(--mantine-color-red-6)' : p.selected ? 'var(--mantine-color-blue-5)' : undefined,
        borderWidth: bad || p.selected ? 2 : undefined,
        opacity: p.dragging ? 0.5 : 1,
        background: isLoop ? 'var(--mantine-color-gray-0)' : undefined,
        marginLeft: p.inTask ? 'var(--mantine-spacing-lg)' : undefined,
        ...(p.inTask && !bad && !p.selected
          ? { borderLeftWidth: 4, borderLeftColor: 'var(--mantine-color-teal-4)' }
          : {}),
      }}
      aria-label={t('flowEditor.builder.stepLabel', { number, kind })}
      aria-invalid={bad || undefined}
      data-testid={`flow-step-${key}`}
      data-step-id={String(p.step.id ?? '')}
      data-kind={p.step.kind}
      data-invalid={bad ? 'true' : undefined}
      data-in-task={p.inTask ? 'true' : undefined}
    >
      <Group
        justify="space-between"
        wrap="nowrap"
        gap="xs"
        draggable={!p.readOnly}
        onDragStart={(e: DragEvent) => p.actions.dragStart(e, p.path)}
        onDragEnd={p.actions.dragEnd}
        {...drop}
        style={{ cursor: p.readOnly ? undefined : 'grab' }}
        data-testid={`flow-step-head-${key}`}
      >
        <UnstyledButton
          onClick={() => p.actions.select(key)}
          style={{ flex: 1, minWidth: 0 }}
          aria-expanded={p.selected}
          aria-label={t('flowEditor.builder.stepLabel', { number, kind })}
          data-testid={`flow-step-select-${key}`}
        >
          <Group gap="xs" wrap="nowrap">
            {!p.readOnly && (
              <Text c="dimmed" aria-hidden title={t('flowEditor.builder.drag', { number })}>
                ⋮⋮
              </Text>
            )}
            <Text size="sm" c="dimmed" miw={28}>
              {number}
            </Text>
            <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
              {kind}
            </Text>
            {isLoop && (
              <Badge variant="light" data-testid={`flow-loop-count-${key}`}>
                {p.step.count === null
                  ? t('flowEditor.builder.untilCancelled')
                  : t('flowEditor.builder.times', { count: p.step.count as number })}
              </Badge>
            )}
            <Text size="sm" c="dimmed" truncate>
              {p.summary}
            </Text>
          </Group>
        </UnstyledButton>
        {!p.readOnly && (
          <Group gap={2} wrap="nowrap">
            <ActionIcon
              variant="subtle"
              size="sm"
              disabled={atTop && index === 0}
              aria-label={t('flowEditor.builder.up', { number })}
              onClick={() => p.actions.up(p.path)}
              data-testid={`flow-step-up-${key}`}
            >
              ↑
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              size="sm"
              disabled={atTop && index === p.siblings - 1}
              aria-label={t('flowEditor.builder.down', { number })}
              onClick={() => p.actions.down(p.path)}
              data-testid={`flow-step-down-${key}`}
            >
              ↓
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              size="sm"
              aria-label={t('flowEditor.builder.duplicate', { number })}
              onClick={() => p.actions.duplicate(p.path)}
              data-testid={`flow-step-duplicate-${key}`}
            >
              <svg
                width="14"
                height="14"
                viewBox="0 0 16 16"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.5"
                aria-hidden
              >
                <rect x="5" y="5" width="9" height="9" rx="1.5" />
                <path d="M11 5V3.5A1.5 1.5 0 0 0 9.5 2h-6A1.5 1.5 0 0 0 2 3.5v6A1.5 1.5 0 0 0 3.5 11H5" />
              </svg>
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              size="sm"
              color="red"
              aria-label={t('flowEditor.builder.remove', { number })}
              onClick={() => p.actions.remove(p.path)}
              data-testid={`flow-step-remove-${key}`}
            >
              ✕
            </ActionIcon>
          </Group>
        )}
      </Group>
      {bad && (
        <List size="xs" c="red" mt={4} data-testid={`flow-step-problems-${key}`}>
          {p.issues.map((x, i) => (
            <List.Item key={i}>{x.text}</List.Item>
          ))}
        </List>
      )}
      {p.fields && <Box mt="xs">{p.fields}</Box>}
      {p.body}
    </Paper>
  );
}, sameBlock);

function Palette({
  data,
  readOnly,
  kindName,
  onAdd,
  onDragStart,
  onDragEnd,
}: {
  data: BuilderData;
  readOnly?: boolean;
  kindName: (kind: string) => string;
  onAdd: (kind: StepKind, commandId?: number) => void;
  onDragStart: (d: Drag) => void;
  onDragEnd: () => void;
}) {
  const { t } = useText();
  const entry = (key: string, label: string, kind: StepKind, commandId?: number) => (
    <Button
      key={key}
      variant="default"
      size="compact-sm"
      justify="flex-start"
      fullWidth
      disabled={readOnly}
      draggable={!readOnly}
      onDragStart={(e: DragEvent) => {
        e.dataTransfer.effectAllowed = 'copy';
        e.dataTransfer.setData('text/plain', key);
        onDragStart({ type: 'new', kind, ...(commandId !== undefined ? { commandId } : {}) });
      }}
      onDragEnd={onDragEnd}
      onClick={() => onAdd(kind, commandId)}
      aria-label={t('flowEditor.builder.add', { kind: label })}
      data-testid={`flow-palette-${key}`}
    >
      {label}
    </Button>
  );
  return (
    <Paper withBorder p="sm" data-testid="flow-palette">
      <Title order={3} size="h5">
        {t('flowEditor.builder.palette')}
      </Title>
      <Text size="xs" c="dimmed" mb="xs">
        {t('flowEditor.builder.paletteHint')}
      </Text>
      <Stack gap="sm">
        {PALETTE.map((g) => (
          <Stack key={g.category} gap={4} role="group" aria-label={t(`flowEditor.builder.categories.${g.category}`)}>
            <Text size="xs" fw={700} c="dimmed" tt="uppercase">
              {t(`flowEditor.builder.categories.${g.category}`)}
            </Text>
            {g.kinds.map((k) => entry(k, kindName(k), k))}
          </Stack>
        ))}
        <Stack gap={4} role="group" aria-label={t('flowEditor.builder.categories.library')}>
          <Text size="xs" fw={700} c="dimmed" tt="uppercase">
            {t('flowEditor.builder.categories.library')}
          </Text>
          {data.commands.length === 0 ? (
            <Text size="xs" c="dimmed">
              {t('flowEditor.builder.libraryEmpty')}
            </Text>
          ) : (
            data.commands.map((c) => entry(`command-${c.id}`, c.name, 'command', c.id))
          )}
        </Stack>
      </Stack>
    </Paper>
  );
}

function Summary({
  placed,
  robotName,
  steps,
  kindName,
  jsonError,
  onSelect,
}: {
  placed: Placed[];
  /** The robot the flow is checked for, if one is chosen. */
  robotName?: string;
  steps: readonly Step[];
  kindName: (kind: string) => string;
  jsonError?: string;
  onSelect: (key: string) => void;
}) {
  const { t } = useText();
  const toFix = placed.filter((p) => !p.robot);
  const forRobot = placed.filter((p) => p.robot);
  const ok = toFix.length === 0 && jsonError === undefined;
  const list = (items: Placed[], testId: string) => (
    <List size="sm" data-testid={testId}>
      {items.map((p, i) => {
        const path = p.key ? keyToPath(p.key) : null;
        const s = path ? stepAt(steps, path) : undefined;
        return (
          <List.Item key={i}>
            {p.key && s ? (
              <UnstyledButton onClick={() => onSelect(p.key!)} style={{ textDecoration: 'underline' }}>
                <Text size="sm" span>
                  {t('flowEditor.builder.summary.at', { number: numberOf(path!), kind: kindName(s.kind) })}
                </Text>
              </UnstyledButton>
            ) : (
              t('flowEditor.builder.summary.whole')
            )}
            : {p.text}
          </List.Item>
        );
      })}
    </List>
  );
  return (
    <Paper withBorder p="sm" data-testid="flow-builder-summary">
      <Title order={3} size="h5" mb="xs">
        {t('flowEditor.builder.summary.title')}
      </Title>
      {ok ? (
        <Text size="sm" c="green" data-testid="flow-builder-valid">
          {t('flowEditor.builder.summary.valid')}
        </Text>
      ) : (
        <>
          <Text size="sm" c="red" mb={4}>
            {t('flowEditor.builder.summary.count', { count: toFix.length })}
          </Text>
          {list(toFix, 'flow-builder-problems')}
        </>
      )}
      {forRobot.length > 0 && (
        <>
          <Text size="sm" c="orange.8" mt="xs" mb={4}>
            {t('flowEditor.builder.summary.robotCount', { count: forRobot.length, robot: robotName ?? '' })}
          </Text>
          {list(forRobot, 'flow-builder-robot-problems')}
        </>
      )}
    </Paper>
  );
}

/**
 * "Check for robot": any robot (the default) or one of the building's robots. The hint says where
 * the camera lists come from.
 */
function RobotChoice({ check, onChange }: { check: RobotCheck; onChange: (robotId: number | null) => void }) {
  const { t } = useText();
  const r = (key: string, o?: Record<string, unknown>) => t(`flowEditor.builder.robot.${key}`, o);
  const names = check.cameras.map((c) => t(`flowEditor.builder.cameras.${c}`)).join(', ');
  const hint =
    check.source === 'robot'
      ? r('hintRobot', { robot: check.chosen?.name, cameras: names || r('none') })
      : check.source === 'robotUnknown'
        ? r('hintRobotUnknown', { robot: check.chosen?.name })
        : check.source === 'union'
          ? r('hintUnion', { count: check.robots.length, cameras: names })
          : r(check.source === 'noRobots' ? 'hintNoRobots' : 'hintNoCameras');
  return (
    <NativeSelect
      label={r('label')}
      description={hint}
      value={check.chosen ? String(check.chosen.id) : ''}
      data={[
        { value: '', label: r('any') },
        ...check.robots.map((x) => ({ value: String(x.id), label: `${x.name} (${x.model})` })),
      ]}
      onChange={(e) => onChange(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
      maw={480}
      inputWrapperOrder={['label', 'input', 'description']}
      descriptionProps={{ 'data-testid': 'flow-check-robot-hint' } as Record<string, string>}
      data-testid="flow-check-robot"
    />
  );
}
