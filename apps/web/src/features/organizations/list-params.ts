import type { Filter } from '@portal/contract';

export const ORGANIZATIONS_PER_PAGE = 20;
export const organizationSortColumns = [
  'name',
  'type',
  'level',
  'prefecture',
  'status',
  'labOption',
  'updatedAt',
] as const;
export type OrganizationSortColumn = (typeof organizationSortColumns)[number];

export interface Sort<C extends string> {
  column: C;
  desc: boolean;
}

/** The list's state as it stands in the URL: `?page=2&sort=-updatedAt&q=tokyo`. */
export interface OrganizationListParams {
  page: number;
  sort: Sort<OrganizationSortColumn> | null;
  q: string;
}

const isColumn = (v: string): v is OrganizationSortColumn => (organizationSortColumns as readonly string[]).includes(v);

export function parsePage(v: string | null): number {
  const n = Number(v ?? '1');
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

export function parseOrganizationListParams(search: URLSearchParams): OrganizationListParams {
  const raw = search.get('sort') ?? '';
  const desc = raw.startsWith('-');
  const column = desc ? raw.slice(1) : raw;
  return {
    page: parsePage(search.get('page')),
    sort: isColumn(column) ? { column, desc } : null,
    q: (search.get('q') ?? '').trim(),
  };
}

export const sortParam = <C extends string>(sort: Sort<C> | null): string | undefined =>
  sort ? `${sort.desc ? '-' : ''}${sort.column}` : undefined;

/** The query string of a list state (page 1 and empty values left out). */
export const organizationListQuery = (p: OrganizationListParams) => ({
  page: p.page > 1 ? p.page : undefined,
  sort: sortParam(p.sort),
  q: p.q || undefined,
});

/** The server takes the pattern as given and refuses backslashes (filter.ts), so they are dropped. */
export const likePattern = (q: string) => `%${q.replace(/\\/g, '')}%`;

/** The LoopBack filter the server pages, sorts and searches with. */
export function organizationListFilter(p: OrganizationListParams): Filter {
  return {
    ...(p.q ? { where: { name: { like: likePattern(p.q) } } } : {}),
    order: p.sort ? `${p.sort.column} ${p.sort.desc ? 'DESC' : 'ASC'}` : 'name ASC',
    limit: ORGANIZATIONS_PER_PAGE,
    skip: (p.page - 1) * ORGANIZATIONS_PER_PAGE,
  };
}
