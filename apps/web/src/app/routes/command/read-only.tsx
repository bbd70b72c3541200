import { CommandList } from '@/features/commands/components/command-list';

/** /command/list/read-only: the library without create or edit, with the §6 notice. */
export function Component() {
  return <CommandList canManage={false} readOnly />;
}
