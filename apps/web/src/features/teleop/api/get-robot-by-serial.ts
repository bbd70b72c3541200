import { robotSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { teleopKeys } from './keys';

/** GET /robots/by-serial/:serialNo: the operator screens' URLs name robots by serial number. */
export const getRobotBySerial = (serialNo: string) =>
  api.get(`/robots/by-serial/${encodeURIComponent(serialNo)}`, robotSchema);

export const robotBySerialQueryOptions = (serialNo: string) =>
  queryOptions({ queryKey: teleopKeys.bySerial(serialNo), queryFn: () => getRobotBySerial(serialNo) });

export const useRobotBySerial = (serialNo: string) => useQuery(robotBySerialQueryOptions(serialNo));
