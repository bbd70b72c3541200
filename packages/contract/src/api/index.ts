export * from './operation.ts';
export * from './client.ts';
export * from './ops/buildings.ts';
