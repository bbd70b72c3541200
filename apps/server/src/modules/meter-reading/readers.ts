import { hakaruReader, type HakaruDeps } from './hakaru-client.ts';
import { builtinReader, type MeterItem, type MeterReadingService } from './reading-service.ts';

/** The reading service of a check item: hakaru.ai for `readingService: hakaru`, else the built-in reader. */
export function meterReaders(deps: HakaruDeps): (item: Pick<MeterItem, 'readingService'>) => MeterReadingService {
  const hakaru = hakaruReader(deps);
  return (item) => (item.readingService === 'hakaru' ? hakaru : builtinReader);
}
