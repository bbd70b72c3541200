import { isDataAdmin } from '@portal/contract';

/** Only organization administrators and system administrators change buildings (the server enforces it too). */
export const canManageBuildings = (type: number | undefined): boolean => type !== undefined && isDataAdmin(type);
