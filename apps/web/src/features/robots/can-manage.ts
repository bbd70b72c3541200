import { isDataAdmin } from '@portal/contract';

/** Organization administrators (own organization) and system administrators register, edit and delete robots. */
export const canManageRobots = (type: number | undefined): boolean => type !== undefined && isDataAdmin(type);
