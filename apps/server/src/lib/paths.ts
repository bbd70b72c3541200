import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The repository's root folder. Found by walking up from this module's folder, which is
 * `apps/server/src/lib` when the server runs from its TypeScript source (tests, `npm run serve`) and
 * `apps/server/dist` when it runs from the production build (`npm start`, docs/deployment.md), so paths
 * to the web build and the simulator do not depend on how deep the running file sits.
 */
export const repoRoot: string = findRoot(import.meta.dirname);

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'apps', 'server', 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`repository root not found above ${from}`);
  }
}
