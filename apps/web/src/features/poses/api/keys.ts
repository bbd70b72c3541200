export const poseKeys = {
  all: ['poses'] as const,
  defList: (params: unknown) => ['poses', 'defs', 'list', params] as const,
  defOptions: (armModel: number, armType: number) => ['poses', 'defs', 'options', armModel, armType] as const,
  def: (id: number) => ['poses', 'defs', 'detail', id] as const,
  networkList: (params: unknown) => ['poses', 'networks', 'list', params] as const,
  network: (id: number) => ['poses', 'networks', 'detail', id] as const,
};
