import { initDataSchema, type InitData } from '@portal/contract';

export interface InitDataProblem {
  path: string;
  message: string;
}

export type ParsedInitData =
  | { ok: true; data: InitData }
  | { ok: false; notJson: true }
  | { ok: false; notJson: false; problems: InitDataProblem[] };

/** Parses a file's text with the contract schema, listing every problem with its path. */
export function parseInitData(text: string): ParsedInitData {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, notJson: true };
  }
  const result = initDataSchema.safeParse(json);
  if (result.success) return { ok: true, data: result.data };
  return {
    ok: false,
    notJson: false,
    problems: result.error.issues.map((i) => ({ path: i.path.map(String).join('.') || '(root)', message: i.message })),
  };
}
