import { robotSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { consoleKeys } from './keys';

/** GET /robots/by-serial/:serialNo: the registry row (404 NOT_FOUND when unknown or out of scope). */
export const getRobotBySerial = (serialNo: string) =>
  api.get(`/robots/by-serial/${encodeURIComponent(serialNo)}`, robotSchema);

export const robotBySerialQueryOptions = (serialNo: string) =>
  queryOptions({ queryKey: consoleKeys.robot(serialNo), queryFn: () => getRobotBySerial(serialNo) });

export const useRobotBySerial = (serialNo: string) => useQuery(robotBySerialQueryOptions(serialNo));
