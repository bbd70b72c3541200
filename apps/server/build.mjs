// `npm run build:server`: the production build of the server (docs/deployment.md, decision 0009).
// Bundles the server's TypeScript and the workspace packages it imports (@portal/*) into
// apps/server/dist/main.mjs, and the image worker thread into dist/image-worker-thread.mjs; every other
// package is imported from node_modules at run time. Source maps are written beside them
// (`node --enable-source-maps apps/server/dist/main.mjs` uses them). An optional argument names
// another output folder; it must lie inside the repository (the bundle finds node_modules and the
// repository's root from where it lies).
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const outdir = process.argv[2] ? resolve(process.argv[2]) : join(here, 'dist');
rmSync(outdir, { recursive: true, force: true });

/** Bare imports stay imports of node_modules, except the workspace's own TypeScript packages. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@portal/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const started = Date.now();
await build({
  entryPoints: {
    main: join(here, 'src/main.ts'),
    'image-worker-thread': join(here, 'src/lib/image-worker-thread.ts'),
  },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: false,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [externalPackages],
});
console.log(`server built in ${Date.now() - started} ms: ${outdir}`);
