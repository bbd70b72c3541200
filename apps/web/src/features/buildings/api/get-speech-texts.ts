import { speechTextSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { buildingKeys } from './keys';

export const getSpeechTexts = (buildingId: number) =>
  api.get(`/buildings/${buildingId}/speech-texts`, z.array(speechTextSchema));

export const speechTextsQueryOptions = (buildingId: number) =>
  queryOptions({ queryKey: buildingKeys.speechTexts(buildingId), queryFn: () => getSpeechTexts(buildingId) });

export const useSpeechTexts = (buildingId: number) => useQuery(speechTextsQueryOptions(buildingId));
