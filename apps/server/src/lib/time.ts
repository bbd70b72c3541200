/** Timestamps are UTC ISO-8601 text everywhere (docs/architecture-decisions.md "Data"). */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
export const iso = (d: Date): string => d.toISOString();
export const addMinutes = (d: Date, minutes: number): Date => new Date(d.getTime() + minutes * 60_000);
export const addDays = (d: Date, days: number): Date => new Date(d.getTime() + days * 86_400_000);
