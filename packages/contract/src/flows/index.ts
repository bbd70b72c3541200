export * from './definition.ts';
export * from './resources.ts';
