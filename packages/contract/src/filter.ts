import { z } from 'zod';

/**
 * LoopBack-style list filter (docs/architecture-decisions.md "API"): `where`, `order`, `fields`, `include`,
 * `limit`, `skip`. The shape is checked here; which fields, operators and relations a resource
 * allows is checked by the server's per-resource allow-list.
 */
export const FILTER_DEFAULT_LIMIT = 100;
export const FILTER_MAX_LIMIT = 1000;

export const whereOperators = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'inq', 'nin', 'like', 'between'] as const;
export type WhereOperator = (typeof whereOperators)[number];

export type Scalar = string | number | boolean | null;
export type WhereCondition = Scalar | Partial<Record<WhereOperator, Scalar | Scalar[]>>;
export interface Where {
  and?: Where[];
  or?: Where[];
  [field: string]: WhereCondition | Where[] | undefined;
}

export interface Filter {
  where?: Where;
  order?: string | string[];
  fields?: string[] | Record<string, boolean>;
  include?: string | Array<string | { relation: string }>;
  limit?: number;
  skip?: number;
}

export const filterShapeSchema = z
  .object({
    where: z.record(z.string(), z.unknown()).optional(),
    order: z.union([z.string(), z.array(z.string()).max(10)]).optional(),
    fields: z.union([z.array(z.string()).max(100), z.record(z.string(), z.boolean())]).optional(),
    include: z
      .union([z.string(), z.array(z.union([z.string(), z.object({ relation: z.string() }).strict()])).max(10)])
      .optional(),
    limit: z.number().int().min(0).max(FILTER_MAX_LIMIT).optional(),
    skip: z.number().int().min(0).max(10_000_000).optional(),
  })
  .strict();
