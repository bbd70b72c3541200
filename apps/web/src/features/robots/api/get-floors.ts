/** Floors of a building for the robot screens: the shared call and cache entry (also the dashboard's). */
export { floorsQueryOptions, useFloors } from '@/lib/floor-options';
