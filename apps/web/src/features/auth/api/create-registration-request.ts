import { loginIdSchema, personNameSchema } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

/**
 * Body of POST /registration-requests (docs/api.md). The contract has no schema for it yet, so the
 * form schema is composed from the contract's field rules.
 */
export const registrationRequestSchema = z.object({
  lastName: personNameSchema,
  firstName: personNameSchema,
  email: loginIdSchema,
  organizationName: z.string().trim().min(1, 'validation.required').max(48, 'validation.max48'),
  message: z.string().trim().max(2000, 'validation.tooLong'),
});
export type RegistrationRequest = z.infer<typeof registrationRequestSchema>;

export const createRegistrationRequest = (body: RegistrationRequest) =>
  api.command('POST', '/registration-requests', { body, skipAuthRedirect: true });

export const useCreateRegistrationRequest = () => useMutation({ mutationFn: createRegistrationRequest });
