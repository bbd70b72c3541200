import { operatorOps, type CreateOperatorBody } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

export const useCreateOperator = () =>
  useOpMutation(operatorOps.createOperator, {
    args: (body: CreateOperatorBody) => ({ body }),
    invalidates: ['operators'],
  });
