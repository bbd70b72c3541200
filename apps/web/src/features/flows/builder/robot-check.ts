import {
  CAMERA_IDS,
  flowDefinitionSchema,
  robotFeatureOps,
  robotOps,
  validateFlowDefinition,
  type CameraId,
  type Command,
  type Filter,
  type FlowDefinition,
  type FlowValidationContext,
  type Robot,
  type RobotCapabilities,
} from '@portal/contract';
import { useQueries, useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import type { DefinitionProblem } from '../components/definition';

/** The robots of a building (the builder's "Check for robot" choice), by name. */
const robotsFilter = (buildingId: number): Filter => ({ where: { buildingId }, order: 'name ASC', limit: 1000 });

/** Where the camera lists of the builder come from (the hint under the robot choice says which). */
export type CameraSource =
  /** The chosen robot's factsheet. */
  | 'robot'
  /** The chosen robot's capabilities are being read, or could not be read: every camera. */
  | 'robotUnknown'
  /** Any robot: the cameras of the building's robots together. */
  | 'union'
  /** Any robot, and the building has no robot: every camera. */
  | 'noRobots'
  /** Any robot, and no robot of the building has reported a camera (yet): every camera. */
  | 'noCameras';

export interface RobotCheck {
  /** The robots of the flow's building (empty while loading or when the list cannot be read). */
  robots: readonly Robot[];
  /** The chosen robot (null: any robot). */
  chosen: Robot | null;
  /** What `validateFlowDefinition` gets as `ctx.robot`: the chosen robot once its capabilities are known. */
  robot: FlowValidationContext['robot'] | null;
  /** The cameras the builder's camera selects offer (a value outside stays, marked). */
  cameras: readonly CameraId[];
  source: CameraSource;
}

/**
 * The builder's "Check for robot": the robots of the flow's building (GET /robots by building) and
 * each one's capabilities as its factsheet says (GET /robots/:id/teleop, the operator screen's cache
 * entry; never guessed from the model name). With a robot chosen, the camera lists are its cameras
 * and its capabilities check the steps; with any robot, the lists are the cameras of the building's
 * robots together, or every camera when there is none.
 */
export function useRobotCheck(buildingId: number, robotId: number | null): RobotCheck {
  const filter = robotsFilter(buildingId);
  const list = useQuery({
    ...opQuery(robotOps.listRobots, queryKeys.robots.options('flow-builder', filter), { query: { filter } }),
    enabled: buildingId > 0,
    retry: false,
    staleTime: 60_000,
  });
  const robots = buildingId > 0 ? (list.data ?? []) : [];
  // A robot of another building (the building was changed) counts as no choice.
  const chosen = robotId === null ? null : (robots.find((r) => r.id === robotId) ?? null);
  const read = chosen ? [chosen] : robots;
  const teleop = useQueries({
    queries: read.map((r) => ({
      ...opQuery(robotFeatureOps.getRobotTeleop, queryKeys.teleop.detail(r.id), { params: { id: r.id } }),
      retry: false,
      staleTime: 60_000,
    })),
  });
  const capabilities = teleop.map((q) => q.data?.capabilities);

  if (chosen) {
    const c = capabilities[0];
    if (!c) return { robots, chosen, robot: null, cameras: CAMERA_IDS, source: 'robotUnknown' };
    return {
      robots,
      chosen,
      robot: { model: chosen.model, capabilities: c },
      cameras: CAMERA_IDS.filter((id) => c.cameras.includes(id)),
      source: 'robot',
    };
  }
  if (robots.length === 0) return { robots, chosen, robot: null, cameras: CAMERA_IDS, source: 'noRobots' };
  const union = new Set(capabilities.flatMap((c: RobotCapabilities | undefined) => c?.cameras ?? []));
  if (union.size === 0) return { robots, chosen, robot: null, cameras: CAMERA_IDS, source: 'noCameras' };
  return { robots, chosen, robot: null, cameras: CAMERA_IDS.filter((id) => union.has(id)), source: 'union' };
}

/** The messages of the robot check (the rest of the definition's problems come without a robot). */
const ROBOT_MESSAGES = new Set(['flowValidation.capability', 'flowValidation.commandModel']);

/**
 * What the chosen robot cannot do in the definition text: `validateFlowDefinition` with
 * `ctx.robot` (and the library commands, so a command's own steps and its models are checked where
 * it is used), keeping only the robot's messages. Text that is not a definition yet: none.
 */
export function robotProblems(
  text: string,
  robot: NonNullable<FlowValidationContext['robot']>,
  commands: readonly Command[],
): DefinitionProblem[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const parsed = flowDefinitionSchema.safeParse(value);
  if (!parsed.success) return [];
  const refs: FlowValidationContext['commands'] = new Map(
    commands.map((c) => [
      c.id,
      {
        modelsAllowed: c.modelsAllowed,
        steps: c.definition.steps,
        parameters: c.parameters.map((p) => ({ name: p.name, type: p.type })),
      },
    ]),
  );
  return validateFlowDefinition(parsed.data as FlowDefinition, { robot, commands: refs })
    .filter((i) => ROBOT_MESSAGES.has(i.message))
    .map((i) => ({ path: i.path, message: i.message, ...(i.params ? { params: i.params } : {}) }));
}
