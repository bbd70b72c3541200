import { flowDefinitionSchema, validateFlowDefinition, type FlowDefinition, type FlowStep } from '@portal/contract';

/** One problem of the definition: where (`steps.0.camera`, '' for the whole), the message key and its values. */
export interface DefinitionProblem {
  path: string;
  message: string;
  params?: Record<string, string>;
}

export type DefinitionCheck =
  { ok: true; definition: FlowDefinition } | { ok: false; problems: DefinitionProblem[]; jsonError?: string };

/**
 * The definition text as the server judges it without the building: JSON, the contract's flow
 * definition schema, then `validateFlowDefinition` (task brackets, detection, work plans...).
 */
export function checkFlowDefinition(text: string): DefinitionCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, problems: [], jsonError: e instanceof Error ? e.message : String(e) };
  }
  const parsed = flowDefinitionSchema.safeParse(value);
  if (!parsed.success)
    return { ok: false, problems: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) };
  const definition = parsed.data as FlowDefinition;
  const issues = validateFlowDefinition(definition);
  if (issues.length > 0) return { ok: false, problems: issues };
  return { ok: true, definition };
}

export const formatDefinition = (definition: unknown): string => JSON.stringify(definition, null, 2);

/** A step's main parameter for the outline (kind-specific; '' when it has none). */
export function mainParameter(step: FlowStep): string {
  const s = step as Record<string, unknown>;
  switch (step.kind) {
    case 'moveToWaypoint':
      return `#${String(s.waypointId)}`;
    case 'followRoute':
      return `#${String(s.routeId)}`;
    case 'moveToFloor':
      return `#${String(s.floorId)} / #${String(s.waypointId)}`;
    case 'passSecurityDoor':
      return String(s.doorId);
    case 'wait':
      return `${String(s.seconds)} s`;
    case 'loop':
      return s.count === null ? '∞' : `× ${String(s.count)}`;
    case 'speak':
      return typeof s.text === 'string' ? s.text : `#${String(s.speechTextId)}`;
    case 'playAudio':
      return String(s.audio);
    case 'takePhoto':
      return `${String(s.camera)} ${String(s.resolution)}`;
    case 'recording':
      return String(s.action);
    case 'cameraSettings':
      return String(s.camera);
    case 'pose':
      return String(s.target);
    case 'face':
      return String(s.expression);
    case 'safetyMargin':
      return `${String(s.meters)} m`;
    case 'taskStart':
      return String(s.name);
    case 'taskEvent':
    case 'notification':
      return String(s.message);
    case 'launchWorkPlan':
      return `#${String(s.workPlanId)}`;
    case 'command':
      return `#${String(s.commandId)}`;
    default:
      return '';
  }
}

/** The definition's steps flattened with their depth (loops' steps one deeper; between task start and complete one deeper). */
export function outlineRows(
  steps: readonly FlowStep[],
  depth = 0,
  path = 'steps',
): { step: FlowStep; depth: number; path: string }[] {
  const rows: { step: FlowStep; depth: number; path: string }[] = [];
  let inTask = 0;
  steps.forEach((step, i) => {
    if (step.kind === 'taskComplete') inTask = Math.max(0, inTask - 1);
    const p = `${path}.${i}`;
    rows.push({ step, depth: depth + inTask, path: p });
    if (step.kind === 'loop') rows.push(...outlineRows(step.steps, depth + inTask + 1, `${p}.steps`));
    if (step.kind === 'taskStart') inTask += 1;
  });
  return rows;
}
