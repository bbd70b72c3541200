import { FlowCreate } from '@/features/flows/components/flow-page';

export function Component() {
  return <FlowCreate />;
}
