import { commandOps, type CommandInput } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

/** POST /commands. */
export const useCreateCommand = () =>
  useOpMutation(commandOps.createCommand, {
    args: (body: CommandInput) => ({ body }),
    invalidates: ['commands'],
  });
