import { buildingOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const speechTextsQueryOptions = (buildingId: number) =>
  opQuery(buildingOps.listSpeechTexts, queryKeys.buildings.part(buildingId, 'speech-texts'), {
    params: { id: buildingId },
  });

export const useSpeechTexts = (buildingId: number) => useQuery(speechTextsQueryOptions(buildingId));
