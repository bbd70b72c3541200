import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Outbound } from '../../lib/outbound.ts';
import { linksRepo } from '../buildings/links-repo.ts';
import type { BuildingSystemsAdapter } from './adapter.ts';
import { httpBuildingSystems } from './http-adapter.ts';

/**
 * The adapter of a building's elevators and security doors, from its system links: the T-Spider URL
 * is the base of the building-systems HTTP API (docs/building-systems.md). Null when the building has
 * none linked (a ride then fails with A0001, a passage with S0020, before the robot moves).
 */
export async function buildingSystemsFor(
  db: Kysely<Database>,
  buildingId: number,
  outbound: Outbound,
): Promise<BuildingSystemsAdapter | null> {
  const url = (await linksRepo(db).find(buildingId))?.t_spider_url.trim() ?? '';
  return url === '' ? null : httpBuildingSystems({ baseUrl: url, outbound });
}
