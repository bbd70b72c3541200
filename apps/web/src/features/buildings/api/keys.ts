/** Query keys of the building screens; every list of a building lives under ['buildings', id]. */
export type GroupKind = 'robot-group' | 'flow-group';

export const buildingKeys = {
  all: ['buildings'] as const,
  page: (filter: string) => ['buildings', 'page', filter] as const,
  detail: (id: number) => ['buildings', id] as const,
  groups: (id: number, kind: GroupKind) => ['buildings', id, `${kind}s`] as const,
  group: (kind: GroupKind, id: number) => [`${kind}s`, id] as const,
  speechTexts: (id: number) => ['buildings', id, 'speech-texts'] as const,
  ipRestriction: (id: number) => ['buildings', id, 'ip-restriction'] as const,
  links: (id: number) => ['buildings', id, 'links'] as const,
  organizations: ['organizations', 'building-options'] as const,
};
