import { FlowSettings } from '@/features/flows/components/flow-settings';

export function Component() {
  return <FlowSettings />;
}
