export * from './resources.ts';
export * from './occurrences.ts';
