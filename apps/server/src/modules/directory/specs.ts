import type { ResourceFilterSpec } from '../../lib/filter.ts';

/** Allow-lists of the list endpoints' `filter` (ARCHITECTURE.md "API"). */
export const buildingFilter: ResourceFilterSpec<'buildings'> = {
  table: 'buildings',
  fields: {
    id: { column: 'id', type: 'integer' },
    name: { column: 'name', type: 'string' },
    prefecture: { column: 'prefecture', type: 'string' },
    city: { column: 'city', type: 'string' },
    address: { column: 'address', type: 'string' },
    postalCode: { column: 'postal_code', type: 'string' },
    latitude: { column: 'latitude', type: 'number' },
    longitude: { column: 'longitude', type: 'number' },
    organizationId: { column: 'organization_id', type: 'integer' },
    status: { column: 'status', type: 'integer' },
    ipRestrictionEnabled: { column: 'ip_restriction_enabled', type: 'boolean' },
    createdAt: { column: 'created_at', type: 'date' },
    updatedAt: { column: 'updated_at', type: 'date' },
  },
  defaultOrder: 'updatedAt DESC',
  includes: ['groups', 'flowGroups'],
};

export const organizationFilter: ResourceFilterSpec<'organizations'> = {
  table: 'organizations',
  fields: {
    id: { column: 'id', type: 'integer' },
    name: { column: 'name', type: 'string' },
    type: { column: 'type', type: 'integer' },
    level: { column: 'level', type: 'integer' },
    prefecture: { column: 'prefecture', type: 'string' },
    city: { column: 'city', type: 'string' },
    address: { column: 'address', type: 'string' },
    postalCode: { column: 'postal_code', type: 'string' },
    status: { column: 'status', type: 'integer' },
    labOption: { column: 'lab_option', type: 'boolean' },
    createdAt: { column: 'created_at', type: 'date' },
    updatedAt: { column: 'updated_at', type: 'date' },
  },
  defaultOrder: 'type ASC',
};

export const floorFilter: ResourceFilterSpec<'floors'> = {
  table: 'floors',
  fields: {
    id: { column: 'id', type: 'integer' },
    name: { column: 'name', type: 'string' },
    buildingId: { column: 'building_id', type: 'integer' },
    type: { column: 'type', type: 'string' },
    index: { column: 'index', type: 'integer' },
    img: { column: 'img', type: 'string' },
    ugomap: { column: 'ugomap', type: 'string' },
    createdAt: { column: 'created_at', type: 'date' },
    updatedAt: { column: 'updated_at', type: 'date' },
  },
  defaultOrder: 'index DESC',
};

/** A database row as the API shows it: API names, booleans as booleans, only the fields asked for. */
export function toApiRow(
  row: Record<string, unknown>,
  spec: { fields: Record<string, { column: string; type: string }> },
  fields: string[] | null,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(spec.fields)) {
    if (fields && !fields.includes(name)) continue;
    const v = row[f.column];
    out[name] = f.type === 'boolean' ? v === 1 || v === true : v;
  }
  return out;
}
