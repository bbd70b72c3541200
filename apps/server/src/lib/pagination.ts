/** `page` (1-based) and `perPage` into SQL offset and limit. */
export const toOffset = (page: number, perPage: number) => ({ limit: perPage, offset: (page - 1) * perPage });
