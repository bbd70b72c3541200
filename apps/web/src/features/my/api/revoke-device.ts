import { myOps } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

export const useRevokeDevice = () =>
  useOpMutation(myOps.revokeDevice, { args: (id: number) => ({ params: { id } }), invalidates: ['my'] });
