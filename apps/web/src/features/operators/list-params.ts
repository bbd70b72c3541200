import { operatorTypeSchema, type Filter, type OperatorTypeCode, type Where } from '@portal/contract';

export const OPERATORS_PER_PAGE = 20;
export const operatorSortColumns = ['lastName', 'loginId', 'type', 'buildingId', 'status', 'lastLoginAt'] as const;
export type OperatorSortColumn = (typeof operatorSortColumns)[number];

export interface Sort<C extends string> {
  column: C;
  desc: boolean;
}

/** The list's state as it stands in the URL: `?page=2&sort=-lastLoginAt&q=yamada&type=0&building=10`. */
export interface OperatorListParams {
  page: number;
  sort: Sort<OperatorSortColumn> | null;
  q: string;
  type: OperatorTypeCode | null;
  building: number | null;
}

const isColumn = (v: string): v is OperatorSortColumn => (operatorSortColumns as readonly string[]).includes(v);
const positiveInt = (v: string | null): number | null => {
  const n = Number(v);
  return v !== null && v !== '' && Number.isInteger(n) && n >= 1 ? n : null;
};

export function parseOperatorListParams(search: URLSearchParams): OperatorListParams {
  const raw = search.get('sort') ?? '';
  const desc = raw.startsWith('-');
  const column = desc ? raw.slice(1) : raw;
  const type = operatorTypeSchema.safeParse(search.get('type') === null ? NaN : Number(search.get('type')));
  return {
    page: positiveInt(search.get('page')) ?? 1,
    sort: isColumn(column) ? { column, desc } : null,
    q: (search.get('q') ?? '').trim(),
    type: type.success ? type.data : null,
    building: positiveInt(search.get('building')),
  };
}

/** URL parameters of a list state; the others of the URL are kept by the caller. */
export const operatorListQuery = (p: OperatorListParams): Record<string, string | undefined> => ({
  page: p.page > 1 ? String(p.page) : undefined,
  sort: p.sort ? `${p.sort.desc ? '-' : ''}${p.sort.column}` : undefined,
  q: p.q || undefined,
  type: p.type === null ? undefined : String(p.type),
  building: p.building === null ? undefined : String(p.building),
});

/** The server refuses backslashes in like patterns (they escape on PostgreSQL only). */
const like = (q: string) => ({ like: `%${q.replace(/\\/g, '')}%` });

/** The LoopBack filter: name or login ID search (`or` + like), type and building, paging and order. */
export function operatorListFilter(p: OperatorListParams): Filter {
  const and: Where[] = [];
  if (p.q) and.push({ or: [{ lastName: like(p.q) }, { firstName: like(p.q) }, { loginId: like(p.q) }] });
  if (p.type !== null) and.push({ type: p.type });
  if (p.building !== null) and.push({ buildingId: p.building });
  const order = p.sort ? `${p.sort.column} ${p.sort.desc ? 'DESC' : 'ASC'}` : 'lastName ASC';
  return {
    ...(and.length > 0 ? { where: and.length === 1 ? and[0] : { and } } : {}),
    order: p.sort?.column === 'lastName' ? [order, `firstName ${p.sort.desc ? 'DESC' : 'ASC'}`] : order,
    limit: OPERATORS_PER_PAGE,
    skip: (p.page - 1) * OPERATORS_PER_PAGE,
  };
}
