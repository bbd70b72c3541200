import type { commandMappingInputSchema, updateCommandMappingBodySchema } from '@portal/contract';
import type { z } from 'zod';

/** Bodies as the routes hand them over (parsed by the contract's schemas: defaults filled). */
export type CommandMappingInputParsed = z.output<typeof commandMappingInputSchema>;
export type UpdateCommandMappingParsed = z.output<typeof updateCommandMappingBodySchema>;
