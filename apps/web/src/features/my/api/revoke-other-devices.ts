import { myOps } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

export const useRevokeOtherDevices = () =>
  useOpMutation(myOps.revokeOtherDevices, { args: () => ({}), invalidates: ['my'] });
