/**
 * A flow's page (`/flow/{id}`, spec section 2). The flow screens are another feature (features do not
 * import each other), so the link is built here from the route the spec names.
 */
export const flowHref = (id: number): string => `/flow/${id}`;
