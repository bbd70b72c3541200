import { createContext, createElement, useContext, type ComponentType } from 'react';

/** One of the flow editor's blocks (speech, photo, lights, pose) as a work plan action. */
export interface WorkPlanBlock {
  kind: string;
  id: string;
  [field: string]: unknown;
}

export interface BlockProps {
  step: WorkPlanBlock;
  onChange: (next: WorkPlanBlock) => void;
  /** The work plan's building (0: a template, no building) and floor. */
  buildingId: number;
  floorId: number | null;
  /** A field's message (already translated), or undefined. */
  fieldError: (field: string) => string | undefined;
  readOnly?: boolean;
}

/**
 * The fields of a block. Work plans share the flow editor's blocks; features do not import each
 * other, so the route (src/app/routes/workplan) provides the flows feature's block here.
 */
export const BlockFieldsContext = createContext<ComponentType<BlockProps> | null>(null);

export function BlockFields(props: BlockProps) {
  const Fields = useContext(BlockFieldsContext);
  // The component comes from the route (stable): it is not made during render.
  return Fields ? createElement(Fields, props) : null;
}

/** A fresh id for a new block or step (`kind`, `kind2`, ...), unique within the definition. */
export function freshId(kind: string, taken: Set<string>): string {
  if (!taken.has(kind)) return kind;
  for (let n = 2; ; n++) if (!taken.has(`${kind}${n}`)) return `${kind}${n}`;
}

/** A new block of a kind with the flow editor's defaults. */
export function newBlock(
  kind: 'speak' | 'takePhoto' | 'lights' | 'pose',
  id: string,
  language: 'ja' | 'en',
): WorkPlanBlock {
  switch (kind) {
    case 'speak':
      return { kind, id, text: '', language };
    case 'takePhoto':
      return { kind, id, camera: 'v1', resolution: '1080p', saveAsTaskImage: false };
    case 'lights':
      return { kind, id, ringLight: true };
    case 'pose':
      return { kind, id, target: 'gimbal', pan: 0, tilt: 0 };
  }
}
