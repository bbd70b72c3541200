export * from './definition.ts';
export * from './resources.ts';
export * from './runs.ts';
