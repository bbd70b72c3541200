import { buildingOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/**
 * GET /buildings/:id/speech-texts: the building's phrases, spoken by the robot with one click (the
 * same cache entry as the building's speech text page).
 */
export const speechTextsQueryOptions = (buildingId: number) =>
  opQuery(buildingOps.listSpeechTexts, queryKeys.buildings.part(buildingId, 'speech-texts'), {
    params: { id: buildingId },
  });

export const useSpeechTexts = (buildingId: number | null) =>
  useQuery({ ...speechTextsQueryOptions(buildingId ?? 0), enabled: buildingId !== null });
