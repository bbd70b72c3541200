import { commandDefinitionSchema, validateFlowDefinition, type FlowDefinition } from '@portal/contract';

/** One problem of the definition text: where (`steps.0.camera`, '' for the whole) and the message key. */
export interface DefinitionProblem {
  path: string;
  message: string;
  params?: Record<string, string>;
}

export type DefinitionCheck =
  { ok: true; definition: FlowDefinition } | { ok: false; problems: DefinitionProblem[]; jsonError?: string };

/**
 * The definition text as the server will judge it: JSON, then the contract's command definition
 * schema, then `validateFlowDefinition` with `inCommand` (the rules that need no building or robot).
 */
export function checkDefinition(text: string): DefinitionCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, problems: [], jsonError: e instanceof Error ? e.message : String(e) };
  }
  const parsed = commandDefinitionSchema.safeParse(value);
  if (!parsed.success)
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    };
  const definition = parsed.data as FlowDefinition;
  const issues = validateFlowDefinition(definition, { inCommand: true });
  if (issues.length > 0) return { ok: false, problems: issues };
  return { ok: true, definition };
}

/** The definition as the text area shows it (two-space JSON). */
export const formatDefinition = (definition: unknown): string => JSON.stringify(definition, null, 2);
