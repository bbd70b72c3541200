import { OperatorType } from '@portal/contract';

/** Organization administrators (own organization) and system administrators change poses and networks. */
export const canManagePoses = (type: number | undefined): boolean =>
  type === OperatorType.orgAdmin || type === OperatorType.systemAdmin;
