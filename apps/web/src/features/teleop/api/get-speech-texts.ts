import { speechTextSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { teleopKeys } from './keys';

/** GET /buildings/:id/speech-texts: the building's phrases, spoken by the robot with one click. */
export const getSpeechTexts = (buildingId: number) =>
  api.get(`/buildings/${buildingId}/speech-texts`, z.array(speechTextSchema));

export const speechTextsQueryOptions = (buildingId: number) =>
  queryOptions({ queryKey: teleopKeys.speechTexts(buildingId), queryFn: () => getSpeechTexts(buildingId) });

export const useSpeechTexts = (buildingId: number | null) =>
  useQuery({ ...speechTextsQueryOptions(buildingId ?? 0), enabled: buildingId !== null });
