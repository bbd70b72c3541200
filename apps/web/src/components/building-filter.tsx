import { NativeSelect } from '@mantine/core';
import { buildingOps, type Filter } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** Active buildings of the operator's scope, by name: only what a filter needs. */
const optionsFilter: Filter = { where: { status: 1 }, order: 'name ASC', fields: ['id', 'name'] };

/** Under the buildings root: a change to any building refreshes every filter at once. */
export const buildingFilterOptions = () => ({
  ...opQuery(buildingOps.listBuildings, queryKeys.buildings.options('filter', optionsFilter), {
    query: { filter: optionsFilter },
  }),
  staleTime: 60_000,
});

interface BuildingFilterProps {
  /** The URL search parameter holding the building id. */
  param?: string;
  /** Offer "All buildings" (the parameter absent). */
  allowAll?: boolean;
  label?: string;
  /** Search parameters to drop when the building changes (a list's page). */
  resetParams?: string[];
  /**
   * For a list paged in its path (`/schedule/log/{page}`): the path of its first page, which a change
   * of building goes to (with the other search parameters kept).
   */
  firstPage?: string;
}

/** A building select bound to the URL (`?building=12`), shared by the list screens. */
export function BuildingFilter({
  param = 'building',
  allowAll = false,
  label,
  resetParams = ['page'],
  firstPage,
}: BuildingFilterProps) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const buildings = useQuery(buildingFilterOptions());
  const value = params.get(param) ?? '';
  const rows = (buildings.data ?? []).filter((b): b is typeof b & { id: number } => typeof b.id === 'number');
  const data = [
    ...(allowAll
      ? [{ value: '', label: t('buildingFilter.all') }]
      : value === ''
        ? [{ value: '', label: t('buildingFilter.choose'), disabled: true }]
        : []),
    ...rows.map((b) => ({ value: String(b.id), label: b.name ?? String(b.id) })),
  ];
  // A building from the URL that is not (yet) in the list still shows as chosen.
  if (value !== '' && !rows.some((b) => String(b.id) === value))
    data.push({ value, label: buildings.isPending ? t('buildingCommon.loading') : value });

  return (
    <NativeSelect
      label={label ?? t('buildingFilter.label')}
      value={value}
      data={data}
      data-testid="building-filter"
      onChange={(e) => {
        const next = e.currentTarget.value;
        const out = new URLSearchParams(params);
        if (next === '') out.delete(param);
        else out.set(param, next);
        for (const p of resetParams) out.delete(p);
        if (firstPage !== undefined && firstPage !== pathname) {
          const qs = out.toString();
          void navigate(`${firstPage}${qs ? `?${qs}` : ''}`);
        } else setParams(out, { replace: false });
      }}
    />
  );
}
