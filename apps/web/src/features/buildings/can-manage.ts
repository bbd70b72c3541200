import { OperatorType } from '@portal/contract';

/** Only organization administrators and system administrators change buildings (the server enforces it too). */
export const canManageBuildings = (type: number | undefined): boolean =>
  type === OperatorType.orgAdmin || type === OperatorType.systemAdmin;
