import { isKnownRobotModel, ROBOT_MODELS } from '@portal/contract';
import type { TFunction } from 'i18next';

/** A robot model as users read it: the known models by their product name, any other as its maker wrote it. */
export const modelLabel = (model: string, t: TFunction): string =>
  isKnownRobotModel(model) ? t(`robotCommon.models.${model}`) : model;

/** Filter choices: the known models, then the other models present (sorted), each once. */
export function modelChoices(t: TFunction, present: Iterable<string> = []): Array<{ value: string; label: string }> {
  const others = [...new Set(present)].filter((m) => m !== '' && !isKnownRobotModel(m)).sort();
  return [...ROBOT_MODELS, ...others].map((m) => ({ value: m, label: modelLabel(m, t) }));
}
