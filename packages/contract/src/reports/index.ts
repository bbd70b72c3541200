export * from './resources.ts';
export * from './exports.ts';
