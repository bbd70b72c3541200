import { COMMAND_CATEGORIES, COMMAND_SCOPES, isDataAdmin, type Filter, type Where } from '@portal/contract';
import { z } from 'zod';
import { likePattern, listParam, whereOf } from '@/lib/list-params';

export const COMMANDS_PER_PAGE = 20;

/** The command list's state as it stands in the URL: `?page=2&q=patrol&category=100&scope=0`. */
export const commandListSchema = z.object({
  page: listParam.page(),
  q: listParam.text(),
  category: listParam.oneOf(COMMAND_CATEGORIES),
  scope: listParam.oneOf(COMMAND_SCOPES),
});
export type CommandListParams = z.output<typeof commandListSchema>;

/** The LoopBack filter: name search, category, scope, paging; by name. */
export function commandListFilter(p: CommandListParams): Filter {
  const and: Where[] = [];
  if (p.q) and.push({ name: { like: likePattern(p.q) } });
  if (p.category !== null) and.push({ category: p.category });
  if (p.scope !== null) and.push({ scope: p.scope });
  return {
    ...whereOf(and),
    order: 'name ASC',
    limit: COMMANDS_PER_PAGE,
    skip: (p.page - 1) * COMMANDS_PER_PAGE,
  };
}

/**
 * Organization administrators (their organization's commands) and system administrators change
 * commands (docs/api-flows.md); area managers and general operators read them.
 */
export const canManageCommands = (type: number | undefined): boolean => type !== undefined && isDataAdmin(type);
