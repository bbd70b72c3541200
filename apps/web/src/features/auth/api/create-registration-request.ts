import { publicOps, registrationRequestBodySchema, type RegistrationRequestBody } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { client } from '@/lib/api-client';

/** Body of POST /registration-requests: the contract's schema, the same the server checks. */
export const registrationRequestSchema = registrationRequestBodySchema;
export type RegistrationRequest = RegistrationRequestBody;

export const createRegistrationRequest = async (body: RegistrationRequest): Promise<void> => {
  await client.call(publicOps.requestRegistration, { body, skipAuthRedirect: true });
};

export const useCreateRegistrationRequest = () => useMutation({ mutationFn: createRegistrationRequest });
