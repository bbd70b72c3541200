import { OperatorType } from '@portal/contract';

/** Organization administrators (own organization) and system administrators register, edit and delete robots. */
export const canManageRobots = (type: number | undefined): boolean =>
  type === OperatorType.orgAdmin || type === OperatorType.systemAdmin;
