import { isDataAdmin } from '@portal/contract';

/** Organization administrators (own organization) and system administrators change poses and networks. */
export const canManagePoses = (type: number | undefined): boolean => type !== undefined && isDataAdmin(type);
