import { myOps } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

export const useMarkMessageRead = () =>
  useOpMutation(myOps.markMessageRead, { args: (id: number) => ({ params: { id } }), invalidates: ['my'] });
