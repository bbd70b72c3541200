/** Query keys of the floor screens; a building's floor list lives under ['buildings', id]. */
export const floorKeys = {
  table: (buildingId: number) => ['buildings', buildingId, 'floors', 'table'] as const,
  detail: (id: number) => ['floors', id] as const,
};
