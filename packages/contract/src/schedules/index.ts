export * from './resources.ts';
export * from './occurrences.ts';
export * from './references.ts';
