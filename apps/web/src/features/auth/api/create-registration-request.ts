import { registrationRequestBodySchema, type RegistrationRequestBody } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Body of POST /registration-requests: the contract's schema, the same the server checks. */
export const registrationRequestSchema = registrationRequestBodySchema;
export type RegistrationRequest = RegistrationRequestBody;

export const createRegistrationRequest = (body: RegistrationRequest) =>
  api.command('POST', '/registration-requests', { body, skipAuthRedirect: true });

export const useCreateRegistrationRequest = () => useMutation({ mutationFn: createRegistrationRequest });
