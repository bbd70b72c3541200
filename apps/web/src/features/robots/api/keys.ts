export const robotKeys = {
  all: ['robots'] as const,
  list: (params: unknown) => ['robots', 'list', params] as const,
  fleet: (buildingId: number | null) => ['robots', 'fleet', buildingId] as const,
  detail: (id: number) => ['robots', 'detail', id] as const,
  history: (id: number, page: number) => ['robots', 'history', id, page] as const,
  pending: ['robots', 'pending'] as const,
  groups: (buildingId: number) => ['buildings', buildingId, 'robot-groups'] as const,
};
