export * from './operation.ts';
export * from './client.ts';
export * from './ops/buildings.ts';
export * from './ops/organizations.ts';
export * from './ops/operators.ts';
export * from './ops/robots.ts';
export * from './ops/robot-features.ts';
