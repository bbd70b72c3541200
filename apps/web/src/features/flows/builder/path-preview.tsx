import { Paper, Stack, Text, Title } from '@mantine/core';
import { WaypointType, type CheckItem, type FloorMap } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { canSketch, FloorSketch, type SketchPoint } from '@/components/floor-sketch';
import { eachStep, stepKey, type Step } from './tree';

/** One numbered move target: a waypoint (or a route's waypoints) the robot drives to, on a floor. */
export interface MoveTarget {
  number: number;
  stepKey: string;
  floorId: number | null;
  /** Waypoint ids in driving order (one for a waypoint, several for a route; none for a meter check). */
  waypointIds: number[];
  /**
   * A meter check's item: the robot drives straight to its place (x, y) and turns to its direction
   * (the runner's meterCheck). `x`/`y` null: the item has no place yet, nothing to draw.
   */
  checkItem?: { id: number; name: string; x: number | null; y: number | null; direction: number };
}

/**
 * The flow's moves in order with the floor each happens on (a loop's steps once), numbered from 1:
 * a waypoint, a route's waypoints, the waypoint reached after an elevator ride, the floor's
 * first charging waypoint for "return to charger", and a meter check's drive to its check item
 * (when the item is on the floor the robot is on, as the runner requires).
 */
export function moveTargets(
  steps: readonly Step[],
  startFloorId: number | null,
  mapOf: ReadonlyMap<number, FloorMap>,
  checkItems: readonly CheckItem[] = [],
): MoveTarget[] {
  const out: MoveTarget[] = [];
  let floor = startFloorId;
  const push = (key: string, ids: number[], checkItem?: MoveTarget['checkItem']) =>
    out.push({
      number: out.length + 1,
      stepKey: key,
      floorId: floor,
      waypointIds: ids,
      ...(checkItem ? { checkItem } : {}),
    });
  for (const { step, path } of eachStep(steps)) {
    const key = stepKey(path);
    const map = floor === null ? undefined : mapOf.get(floor);
    switch (step.kind) {
      case 'moveToWaypoint':
        if (typeof step.waypointId === 'number') push(key, [step.waypointId]);
        break;
      case 'followRoute': {
        const route = map?.document.routes.find((r) => r.id === step.routeId);
        if (route) push(key, [...route.waypointIds]);
        break;
      }
      case 'moveToFloor':
        floor = typeof step.floorId === 'number' ? step.floorId : null;
        push(key, typeof step.waypointId === 'number' ? [step.waypointId] : []);
        break;
      case 'returnToCharger': {
        const charger = map?.document.waypoints.find((w) => w.type === WaypointType.charge);
        if (charger) push(key, [charger.id]);
        break;
      }
      case 'meterCheck': {
        const item = checkItems.find((c) => c.id === step.checkItemId);
        if (item && floor !== null && item.floorId === floor)
          push(key, [], { id: item.id, name: item.name, x: item.x, y: item.y, direction: item.direction });
        break;
      }
      default:
        break;
    }
  }
  return out;
}

/** A move's points on its floor in driving order: its waypoints, or its check item's place. */
export function movePoints(target: MoveTarget, byId: ReadonlyMap<number, SketchPoint>): SketchPoint[] {
  const c = target.checkItem;
  if (c) return c.x !== null && c.y !== null ? [{ x: c.x, y: c.y }] : [];
  return target.waypointIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

/**
 * Where a loop starts again: from its last move back to its first (when both are on one floor and
 * differ), drawn dashed.
 */
export function loopReturns(
  steps: readonly Step[],
  targets: readonly MoveTarget[],
): Array<{ loopKey: string; from: MoveTarget; to: MoveTarget }> {
  const out: Array<{ loopKey: string; from: MoveTarget; to: MoveTarget }> = [];
  for (const { step, path } of eachStep(steps)) {
    if (step.kind !== 'loop') continue;
    const key = stepKey(path);
    const inside = targets.filter((x) => x.stepKey.startsWith(`${key}.`));
    const first = inside[0];
    const last = inside[inside.length - 1];
    if (first && last && first !== last && first.floorId === last.floorId)
      out.push({ loopKey: key, from: last, to: first });
  }
  return out;
}

interface PathPreviewProps {
  steps: readonly Step[];
  startFloorId: number | null;
  mapOf: ReadonlyMap<number, FloorMap>;
  /** The building's check items (a meter check drives to its item). */
  checkItems?: readonly CheckItem[];
  floorName: (floorId: number) => string;
  selectedKey: string | null;
  /** Set when the selected step takes a waypoint of this floor: clicking one sets it. */
  pickFloorId: number | null;
  onPick: (waypointId: number) => void;
}

/**
 * A small SVG per floor the flow is on (the flow's floor first, then each floor an elevator ride
 * leads to): the floor's waypoints and route graph in grey, the flow's moves numbered and joined
 * in order in blue, the selected step's target highlighted.
 */
export function PathPreview({
  steps,
  startFloorId,
  mapOf,
  checkItems = [],
  floorName,
  selectedKey,
  pickFloorId,
  onPick,
}: PathPreviewProps) {
  const { t } = useTranslation();
  const targets = moveTargets(steps, startFloorId, mapOf, checkItems);
  // One panel per floor, in order of first visit.
  const floors: number[] = [];
  if (startFloorId !== null) floors.push(startFloorId);
  for (const x of targets) if (x.floorId !== null && !floors.includes(x.floorId)) floors.push(x.floorId);
  return (
    <Paper withBorder p="sm" data-testid="flow-preview">
      <Title order={3} size="h5" mb="xs">
        {t('flowEditor.builder.preview.title')}
      </Title>
      <Stack gap="sm">
        {floors.slice(0, 4).map((f) => (
          <FloorPanel
            key={f}
            floorId={f}
            name={floorName(f)}
            map={mapOf.get(f)}
            targets={targets.filter((x) => x.floorId === f)}
            returns={loopReturns(steps, targets).filter((x) => x.from.floorId === f)}
            selectedKey={selectedKey}
            pickable={pickFloorId === f}
            onPick={onPick}
          />
        ))}
        {pickFloorId !== null && (
          <Text size="xs" c="dimmed">
            {t('flowEditor.builder.preview.pickHint')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function FloorPanel({
  floorId,
  name,
  map,
  targets,
  returns,
  selectedKey,
  pickable,
  onPick,
}: {
  floorId: number;
  name: string;
  map: FloorMap | undefined;
  targets: MoveTarget[];
  returns: ReturnType<typeof loopReturns>;
  selectedKey: string | null;
  pickable: boolean;
  onPick: (waypointId: number) => void;
}) {
  const { t } = useTranslation();
  const byId = new Map((map?.document.waypoints ?? []).map((w) => [w.id, w]));
  const header = (
    <Text size="sm" fw={500}>
      {name}
    </Text>
  );
  const points = targets.flatMap((x) => movePoints(x, byId));
  const checkPoints = targets.flatMap((x) => (x.checkItem ? movePoints(x, byId) : []));
  // The view holds each item's place and a metre ahead of it, where its direction tick points.
  const checkExtent = targets.flatMap((x) => {
    const c = x.checkItem;
    if (!c || c.x === null || c.y === null) return [];
    const ahead = Number.isFinite(c.direction) ? c.direction : 0;
    return [
      { x: c.x, y: c.y },
      { x: c.x + Math.cos(ahead), y: c.y + Math.sin(ahead) },
    ];
  });
  const unplaced = targets.flatMap((x) => (x.checkItem && x.checkItem.x === null ? [x.checkItem] : []));
  const sketch = map && (canSketch(map.document) || checkPoints.length > 0) && (
    <FloorSketch
      document={map.document}
      extent={checkExtent}
      unit={0.025}
      maxHeight={260}
      label={`${t('flowEditor.builder.preview.title')}: ${name}`}
      path={points}
      pathColor="var(--mantine-color-blue-6)"
      pathTestId="flow-preview-path"
      waypoint={(w) => ({
        size: pickable ? 1.1 : 0.7,
        fill: pickable ? 'var(--mantine-color-gray-6)' : 'var(--mantine-color-gray-5)',
        onClick: pickable ? () => onPick(w.id) : undefined,
        label: pickable ? t('flowEditor.builder.preview.waypointLabel', { name: w.name }) : undefined,
        testId: `flow-preview-waypoint-${w.id}`,
      })}
      targets={targets.flatMap((x) => {
        const w = movePoints(x, byId).at(-1);
        if (!w) return [];
        const item = x.checkItem;
        return [
          {
            key: x.number,
            number: x.number,
            waypoint: w,
            highlighted: x.stepKey === selectedKey,
            testId: `flow-preview-target-${x.number}`,
            ...(item
              ? {
                  label: item.name,
                  heading: item.direction,
                  title: t('flowEditor.builder.preview.checkItem', { name: item.name }),
                }
              : {}),
          },
        ];
      })}
      under={({ px, py, r }) =>
        returns.map((x) => {
          const a = movePoints(x.from, byId).at(-1);
          const c = movePoints(x.to, byId)[0];
          if (!a || !c) return null;
          return (
            <line
              key={x.loopKey}
              x1={px(a.x)}
              y1={py(a.y)}
              x2={px(c.x)}
              y2={py(c.y)}
              stroke="var(--mantine-color-blue-4)"
              strokeWidth={r * 0.4}
              strokeDasharray={`${r} ${r * 0.7}`}
              data-testid={`flow-preview-loop-${x.loopKey}`}
            />
          );
        })
      }
    />
  );
  const notPlaced = unplaced.map((c) => (
    <Text key={c.id} size="xs" c="dimmed" data-testid={`flow-preview-unplaced-${c.id}`}>
      {t('flowEditor.builder.preview.checkItemNotPlaced', { name: c.name })}
    </Text>
  ));
  if (!sketch)
    return (
      <div data-testid={`flow-preview-floor-${floorId}`}>
        {header}
        <Text size="xs" c="dimmed">
          {t('flowEditor.builder.preview.noMap')}
        </Text>
        {notPlaced}
      </div>
    );
  return (
    <div data-testid={`flow-preview-floor-${floorId}`}>
      {header}
      {sketch}
      {targets.length === 0 && (
        <Text size="xs" c="dimmed">
          {t('flowEditor.builder.preview.noMoves')}
        </Text>
      )}
      {notPlaced}
    </div>
  );
}
