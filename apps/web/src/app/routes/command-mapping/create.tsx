import { CommandMappingCreatePage } from '@/features/command-mappings/components/command-mapping-page';

export function Component() {
  return <CommandMappingCreatePage />;
}
