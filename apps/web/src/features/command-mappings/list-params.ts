import { ALL_COMMAND_MODES, COMMAND_MAPPING_STATUSES, type Filter, type Where } from '@portal/contract';
import { z } from 'zod';
import { likePattern, listParam, sortOrder, whereOf, type Sort } from '@/lib/list-params';

export const COMMAND_MAPPINGS_PER_PAGE = 20;
export const commandMappingSortColumns = ['name', 'mode', 'updatedAt'] as const;
export type CommandMappingSortColumn = (typeof commandMappingSortColumns)[number];
export const defaultCommandMappingSort: Sort<CommandMappingSortColumn> = { column: 'name', desc: false };

/** `?q=front&building=10&mode=11&status=1&sort=-updatedAt&page=2` */
export const commandMappingListSchema = z.object({
  page: listParam.page(),
  sort: listParam.sort(commandMappingSortColumns, defaultCommandMappingSort),
  q: listParam.text(),
  building: listParam.id(),
  mode: listParam.oneOf(ALL_COMMAND_MODES),
  status: listParam.oneOf(COMMAND_MAPPING_STATUSES),
});
export type CommandMappingListParams = z.output<typeof commandMappingListSchema>;

/** The LoopBack filter of the list: name search, building, mode, status; its order and page. */
export function commandMappingListFilter(p: CommandMappingListParams): Filter {
  const and: Where[] = [];
  if (p.q) and.push({ name: { like: likePattern(p.q) } });
  if (p.building !== null) and.push({ buildingId: p.building });
  if (p.mode !== null) and.push({ mode: p.mode });
  if (p.status !== null) and.push({ status: p.status });
  return {
    ...whereOf(and),
    order: sortOrder(p.sort, 'name ASC'),
    limit: COMMAND_MAPPINGS_PER_PAGE,
    skip: (p.page - 1) * COMMAND_MAPPINGS_PER_PAGE,
  };
}
