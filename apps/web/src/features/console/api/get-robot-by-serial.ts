import { robotFeatureOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** GET /robots/by-serial/:serialNo: the registry row (404 NOT_FOUND when unknown or out of scope). */
export const robotBySerialQueryOptions = (serialNo: string) =>
  opQuery(robotFeatureOps.getRobotBySerial, queryKeys.robots.detail(`serial:${serialNo}`), { params: { serialNo } });

export const useRobotBySerial = (serialNo: string) => useQuery(robotBySerialQueryOptions(serialNo));
