import type { Database } from '../db/schema.ts';
import type { FilterField, FilterFieldType, ResourceFilterSpec } from './filter.ts';
import { snakeCase, type SnakeCase } from './naming.ts';

/**
 * Declaring a list's filter allow-list (lib/filter.ts reads it): fields by API name and type, the
 * column being the name in snake_case, checked against the table at compile time.
 */

/** API names with their types; each name must be a column of the table in snake_case. */
export type FilterFieldTypes<TB extends keyof Database, F> = {
  [K in keyof F]: K extends string ? (SnakeCase<K> extends keyof Database[TB] ? FilterFieldType : never) : never;
};

/** The id every resource has, first in its fields. */
export const ID_FIELD = { id: 'integer' } as const;
/** The tenancy of a row: its organization and building. */
export const TENANT_FIELDS = { organizationId: 'integer', buildingId: 'integer' } as const;
/** When a row was created and last changed (its version), last in its fields. */
export const TIMESTAMP_FIELDS = { createdAt: 'date', updatedAt: 'date' } as const;

/**
 * An allow-list from API names and types (in the order given): each field's column is its name in
 * snake_case, checked against the table at compile time.
 */
export function filterSpec<TB extends keyof Database, const F extends Record<string, FilterFieldType>>(
  table: TB,
  fields: F & FilterFieldTypes<TB, F>,
  options: Omit<ResourceFilterSpec<TB>, 'table' | 'fields'>,
): ResourceFilterSpec<TB> {
  const defs: Record<string, FilterField<TB>> = {};
  for (const [name, type] of Object.entries(fields)) {
    defs[name] = { column: snakeCase(name) as FilterField<TB>['column'], type };
  }
  return { table, fields: defs, ...options };
}
