import { deviceSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

export const getDevices = () => api.get('/my/devices', z.array(deviceSchema));

export const devicesQueryOptions = () => queryOptions({ queryKey: ['my', 'devices'], queryFn: getDevices });

export const useDevices = () => useQuery(devicesQueryOptions());
