import { CommandMappingList } from '@/features/command-mappings/components/command-mapping-list';

export function Component() {
  return <CommandMappingList />;
}
