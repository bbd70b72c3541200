import { operatorSchema, type CreateOperatorBody } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const createOperator = (body: CreateOperatorBody) => api.send('POST', '/operators', operatorSchema, { body });

export const useCreateOperator = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOperator,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['operators', 'list'] }),
  });
};
