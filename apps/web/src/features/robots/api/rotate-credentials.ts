import { robotCredentialsSchema } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /robots/:id/credentials: a new password (the old one stops working), answered once. */
export const rotateCredentials = (id: number) => api.send('POST', `/robots/${id}/credentials`, robotCredentialsSchema);

export const useRotateCredentials = () => useMutation({ mutationFn: rotateCredentials });
