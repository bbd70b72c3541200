export * from './codes.ts';
export * from './errors.ts';
export * from './validation.ts';
export * from './auth.ts';
export * from './entities.ts';
export * from './my.ts';
export * from './init-data.ts';
export * from './filter.ts';
