import type { ComponentType, ReactNode } from 'react';
import { StepFields } from '@/features/flows/builder/step-fields';
import type { Step } from '@/features/flows/builder/tree';
import { useBuilderData } from '@/features/flows/builder/use-builder-data';
import { BlockFieldsContext, type BlockProps } from '@/features/work-plans/components/blocks';

/** The flow editor's block fields as a work plan's action fields (speech, photo, lights, pose). */
function FlowBlock({ step, onChange, buildingId, floorId, fieldError, readOnly }: BlockProps) {
  const data = useBuilderData(buildingId, floorId === null ? [] : [floorId]);
  return (
    <StepFields
      step={step as unknown as Step}
      onChange={(next) => onChange(next as unknown as BlockProps['step'])}
      data={data}
      floorId={floorId}
      fieldError={fieldError}
      readOnly={readOnly}
    />
  );
}

const block: ComponentType<BlockProps> = FlowBlock;

/** Work plan screens with the flow editor's blocks. */
export function WithFlowBlocks({ children }: { children: ReactNode }) {
  return <BlockFieldsContext.Provider value={block}>{children}</BlockFieldsContext.Provider>;
}
