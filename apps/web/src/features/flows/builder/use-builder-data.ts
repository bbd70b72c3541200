import {
  buildingOps,
  checkItemOps,
  commandOps,
  mapOps,
  poseDefOps,
  type CheckItem,
  type Command,
  type Filter,
  type FloorMap,
  type PoseDef,
} from '@portal/contract';
import { useQueries, useQuery } from '@tanstack/react-query';
import { opPageQuery, opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import { useFlowFloors } from '../api';

/** GET /floors/:id/map (the map editor's cache entry). */
const floorMapQueryOptions = (floorId: number) =>
  opQuery(mapOps.getFloorMap, queryKeys.maps.detail(floorId), { params: { id: floorId } });
/** GET /buildings/:id/speech-texts (the building page's cache entry). */
const speechTextsQueryOptions = (buildingId: number) =>
  opQuery(buildingOps.listSpeechTexts, queryKeys.buildings.part(buildingId, 'speech-texts'), {
    params: { id: buildingId },
  });

/** The active library commands a flow may use (GET /commands: status 1, by name). */
const commandsFilter: Filter = { where: { status: 1 }, order: 'name ASC', limit: 500 };
/** The organization's pose definitions (periscope and arm poses). */
const posesFilter: Filter = { order: 'name ASC', limit: 1000 };

/** The building's check items (a meterCheck step's item), by name. */
const checkItemsFilter = (buildingId: number): Filter => ({ where: { buildingId }, order: 'name ASC', limit: 500 });

/**
 * What the builder's forms pick from: the building's floors, the current map of every floor the
 * flow is on (waypoints, edges, routes), the building's speech texts, the library commands and the
 * pose definitions. A query that fails leaves its choices empty (free input where there is one).
 */
export function useBuilderData(buildingId: number, floorIds: readonly number[]) {
  const floors = useFlowFloors(buildingId);
  const ids = [...new Set(floorIds.filter((f) => f > 0))];
  const maps = useQueries({
    queries: ids.map((id) => ({ ...floorMapQueryOptions(id), staleTime: 60_000, retry: false })),
  });
  const mapOf = new Map<number, FloorMap>();
  ids.forEach((id, i) => {
    const data = maps[i]?.data;
    if (data) mapOf.set(id, data);
  });
  const speech = useQuery({ ...speechTextsQueryOptions(buildingId), enabled: buildingId > 0, retry: false });
  const commands = useQuery({
    ...opPageQuery(commandOps.listCommands, queryKeys.commands.options('flow-builder', commandsFilter), {
      query: { filter: commandsFilter },
    }),
    retry: false,
  });
  const poses = useQuery({
    ...opQuery(poseDefOps.listPoseDefs, queryKeys.poses.options('flow-builder', posesFilter), {
      query: { filter: posesFilter },
    }),
    retry: false,
  });
  const checkItems = useQuery({
    ...opPageQuery(
      checkItemOps.listCheckItems,
      queryKeys.checkItems.options('flow-builder', checkItemsFilter(buildingId)),
      { query: { filter: checkItemsFilter(buildingId) } },
    ),
    enabled: buildingId > 0,
    retry: false,
  });
  return {
    floors: floors.data ?? [],
    checkItems: (checkItems.data?.items ?? []) as CheckItem[],
    mapOf,
    speechTexts: speech.data ?? [],
    commands: (commands.data?.items ?? []) as Command[],
    poses: (poses.data ?? []) as PoseDef[],
  };
}
export type BuilderData = ReturnType<typeof useBuilderData>;
