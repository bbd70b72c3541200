import { Box, Text } from '@mantine/core';
import {
  isActiveRun,
  robotTopic,
  walkSteps,
  WaypointType,
  type FloorMap,
  type FlowDefinition,
  type FlowRunDetail,
} from '@portal/contract';
import { useEffect } from 'react';
import { canSketch, FloorSketch, type SketchFrame } from '@/components/floor-sketch';
import { useFleet, useRealtime } from '@/lib/realtime';
import { useRunFloor, useRunFloorMap } from '../api';
import { useRunWords } from '../words';

/** One numbered move of the flow: the step, the floor it happens on and the waypoint it drives to. */
export interface RunTarget {
  number: number;
  stepId: string;
  floorId: number;
  /** The waypoint driven to (a route's last waypoint; the floor's charger for "return to charger"). */
  waypointId: number | null;
  /** A route's waypoints in order (one for a waypoint). */
  waypointIds: number[];
}

/**
 * The flow's moves in order (a loop's steps once), each with the floor it happens on: the flow's
 * floor until an elevator ride changes it. Routes and the charger are looked up on the floor's map
 * when it is at hand.
 */
export function runTargets(def: FlowDefinition, startFloorId: number, map?: FloorMap): RunTarget[] {
  const out: RunTarget[] = [];
  let floor = startFloorId;
  const push = (stepId: string, ids: number[]) =>
    out.push({ number: out.length + 1, stepId, floorId: floor, waypointId: ids.at(-1) ?? null, waypointIds: ids });
  for (const { step } of walkSteps(def.steps)) {
    const here = map && map.floorId === floor ? map : undefined;
    const num = (v: unknown) => (typeof v === 'number' ? [v] : []);
    switch (step.kind) {
      case 'moveToWaypoint':
        push(step.id, num(step.waypointId));
        break;
      case 'followRoute':
        push(step.id, [...(here?.document.routes.find((r) => r.id === step.routeId)?.waypointIds ?? [])]);
        break;
      case 'moveToFloor':
        if (typeof step.floorId === 'number') floor = step.floorId;
        push(step.id, num(step.waypointId));
        break;
      case 'returnToCharger': {
        const charger = here?.document.waypoints.find((w) => w.type === WaypointType.charge);
        push(step.id, charger ? [charger.id] : []);
        break;
      }
      default:
        break;
    }
  }
  return out;
}

/**
 * The target being driven to (an active run's): the current step's, else the last move started (the
 * robot is on its way from there).
 */
export function currentTarget(run: FlowRunDetail, targets: readonly RunTarget[]): RunTarget | null {
  if (!isActiveRun(run.status)) return null;
  if (run.currentStepId) {
    const t = targets.find((x) => x.stepId === run.currentStepId);
    if (t) return t;
  }
  const moves = new Set(targets.map((x) => x.stepId));
  const last = [...run.steps].filter((s) => moves.has(s.stepId)).sort((a, b) => b.seq - a.seq)[0];
  return last ? (targets.find((x) => x.stepId === last.stepId) ?? null) : null;
}

/**
 * A small floor map of the run: the floor's waypoints and route graph in grey, the flow's targets on
 * this floor numbered (the current one highlighted) and the robot's live position (WebSocket). The
 * floor is the robot's (the flow's floor until the robot reports one).
 */
export function RunMap({ run, definition }: { run: FlowRunDetail; definition: FlowDefinition }) {
  const { t } = useRunWords();
  // The floor only (live changes): the robot's marker follows its positions on its own (RobotMarker),
  // so a moving robot does not redraw the map.
  const live = useRobotLive(run.robotId, false);
  const floorId = live?.floorId ?? run.floorId;
  const map = useRunFloorMap(floorId);
  const floor = useRunFloor(floorId);
  const targets = runTargets(definition, run.floorId, map.data);
  const current = currentTarget(run, targets);
  const here = targets.filter((x) => x.floorId === floorId);

  const title = (
    <Text size="sm" fw={600} mb={4}>
      {t('flowRun.map.title')}
      {floor.data ? ` · ${floor.data.name}` : ''}
    </Text>
  );
  const doc = map.data?.document;
  const byId = new Map((doc?.waypoints ?? []).map((w) => [w.id, w]));
  const path = here.flatMap((x) => x.waypointIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])));
  const sketch = canSketch(doc) && (
    <FloorSketch
      document={doc}
      unit={0.015}
      maxHeight={280}
      label={t('flowRun.map.title')}
      path={path}
      pathColor="var(--mantine-color-blue-3)"
      targets={here.flatMap((x) => {
        const w = x.waypointId === null ? undefined : byId.get(x.waypointId);
        if (!w) return [];
        const isCurrent = current?.number === x.number;
        const label = isCurrent
          ? t('flowRun.map.currentTarget', { number: x.number })
          : t('flowRun.map.target', { number: x.number });
        return [
          {
            key: x.number,
            number: x.number,
            waypoint: w,
            highlighted: isCurrent,
            current: isCurrent,
            size: isCurrent ? 2 : 1.6,
            title: `${label} (${w.name})`,
            testId: `flow-run-map-target-${x.number}`,
          },
        ];
      })}
      over={(frame) => <RobotMarker robotId={run.robotId} floorId={floorId} frame={frame} />}
    />
  );
  if (!sketch)
    return (
      <Box data-testid="flow-run-map">
        {title}
        <Text size="sm" c="dimmed">
          {map.isPending && floorId > 0 ? '' : t('flowRun.map.noMap')}
        </Text>
      </Box>
    );
  return (
    <Box data-testid="flow-run-map" data-floor-id={floorId}>
      {title}
      {sketch}
    </Box>
  );
}

/**
 * The robot's live state (topic `robot:{id}`; `poses`: with its positions). Another view (the live
 * panel) may hold the topic already, and a later listener gets no snapshot of its own: it asks for one
 * (every listener of the topic receives it).
 */
function useRobotLive(robotId: number, poses: boolean) {
  const topic = robotTopic(robotId);
  const fleet = useFleet(topic, { poses });
  const client = useRealtime();
  useEffect(() => client.refresh(topic), [client, topic]);
  return fleet.robots.get(robotId)?.live ?? null;
}

/** The robot's live position on the map (WebSocket poses), drawn only while it is on the map's floor. */
function RobotMarker({ robotId, floorId, frame }: { robotId: number; floorId: number; frame: SketchFrame }) {
  const { t } = useRunWords();
  const live = useRobotLive(robotId, true);
  const pos = live?.position ?? null;
  if (!pos || (live?.floorId ?? floorId) !== floorId) return null;
  const { px, py, r } = frame;
  return (
    <g data-testid="flow-run-map-robot" transform={`translate(${px(pos.x)} ${py(pos.y)})`}>
      <title>{t('flowRun.map.robot')}</title>
      <circle r={r * 1.4} fill="var(--mantine-color-red-6)" stroke="white" strokeWidth={r * 0.3} />
      <line
        x1={0}
        y1={0}
        x2={Math.cos(pos.theta) * r * 2.4}
        y2={-Math.sin(pos.theta) * r * 2.4}
        stroke="var(--mantine-color-red-8)"
        strokeWidth={r * 0.5}
      />
    </g>
  );
}
