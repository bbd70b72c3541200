// ESLint flat config for the whole monorepo. Rules need no type information (fast on 2 cores);
// `tsc -p ...` in `npm run typecheck` does the type checking.
import path from 'node:path';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const ROOT = import.meta.dirname;

/** Apps that must never be imported by package name (docs/architecture.md: apps never import each other). */
const APP_PACKAGES = ['@portal/server', '@portal/web', '@portal/robot-sim'];
/** The simulator is a library for tests and benchmarks (docs/architecture.md): these may import it. */
const SIM_USERS = ['apps/server/test/', 'e2e/', 'bench/'];
/** Import aliases per app, as configured in its bundler (apps/web/vite.config.ts: `@` -> src). */
const ALIASES = { 'apps/web/': { '@/': 'apps/web/src/' } };
const WEB_FEATURES = 'apps/web/src/features/';
const WEB_SHARED = ['lib', 'config', 'components', 'hooks', 'types', 'locales'].map((d) => `apps/web/src/${d}/`);
const WEB_UPPER = ['apps/web/src/features/', 'apps/web/src/app/'];
/** Every TypeScript project: the resolver reads their `paths` (apps/web's `@/` alias) for import-x/no-cycle. */
const TS_PROJECTS = ['packages/*/tsconfig.json', 'apps/*/tsconfig.json', 'e2e/tsconfig.json', 'bench/tsconfig.json'];
/**
 * Server modules a module must never import ('*': none at all), so their dependencies point one way
 * (import-x/no-cycle sees cycles of files, not of module folders). The robot link is infrastructure
 * that other modules use; robots are placed in buildings and floors, which never depend on them.
 */
const SERVER_MODULES = 'apps/server/src/modules/';
const MODULE_NEVER_IMPORTS = { 'robot-link': ['*'], buildings: ['robots'], floors: ['robots'] };
/** The contract's runtime code depends on zod only (its tests may use the test tools). */
const CONTRACT_SRC = 'packages/contract/src/';
const CONTRACT_ROOT = 'packages/contract/';

const toPosix = (p) => p.split(path.sep).join('/');
/** Repository-relative posix path, with a trailing slash for directories-to-be (`apps/web/src/`). */
const repoPath = (abs) => toPosix(path.relative(ROOT, abs));
const appOf = (rel) => /^apps\/([^/]+)\//.exec(rel)?.[1];
const serverModuleOf = (rel) =>
  rel.startsWith(SERVER_MODULES) ? rel.slice(SERVER_MODULES.length).split('/')[0] : undefined;
const featureOf = (rel) => (rel.startsWith(WEB_FEATURES) ? rel.slice(WEB_FEATURES.length).split('/')[0] : undefined);
const under = (rel, dir) => rel === dir.slice(0, -1) || rel.startsWith(dir);

/**
 * The zones of the module boundaries. Returns the message id and data of the first zone the import
 * breaks, or undefined. `from` is the importing file, `spec` the specifier as written, both for a
 * file inside the repository.
 */
function findViolation(from, spec) {
  const bare = !spec.startsWith('.') && !spec.startsWith('/');
  let target; // repository-relative path of a relative or aliased import
  if (!bare) {
    target = repoPath(path.resolve(ROOT, path.dirname(from), spec.replace(/[?#].*$/, '')));
  } else {
    for (const [scope, aliases] of Object.entries(ALIASES)) {
      if (!from.startsWith(scope)) continue;
      for (const [prefix, dir] of Object.entries(aliases)) {
        if (spec.startsWith(prefix))
          target = path.posix.normalize(dir + spec.slice(prefix.length).replace(/[?#].*$/, ''));
      }
    }
  }
  const fromApp = appOf(from);

  if (target === undefined) {
    const pkg = APP_PACKAGES.find((name) => spec === name || spec.startsWith(`${name}/`));
    const simForTests = pkg === '@portal/robot-sim' && SIM_USERS.some((dir) => from.startsWith(dir));
    if (pkg && pkg !== `@portal/${fromApp}` && !simForTests) return { messageId: 'appPackage', data: { spec } };
    if (from.startsWith(CONTRACT_SRC) && spec !== 'zod' && !spec.startsWith('zod/')) {
      return { messageId: 'contractDeps', data: { spec } };
    }
    return undefined;
  }

  const targetApp = appOf(`${target}/`);
  if (targetApp !== undefined && fromApp !== undefined && targetApp !== fromApp) {
    return { messageId: 'crossApp', data: { spec, from: `apps/${fromApp}`, to: `apps/${targetApp}` } };
  }
  if (targetApp !== undefined && from.startsWith('packages/')) {
    return { messageId: 'packageToApp', data: { spec, to: `apps/${targetApp}` } };
  }
  if (from.startsWith(CONTRACT_ROOT) && !under(target, CONTRACT_ROOT)) {
    return { messageId: 'contractDeps', data: { spec } };
  }
  const fromModule = serverModuleOf(from);
  const toModule = serverModuleOf(`${target}/`);
  if (fromModule !== undefined && toModule !== undefined && toModule !== fromModule) {
    const never = MODULE_NEVER_IMPORTS[fromModule] ?? [];
    if (never.includes('*') || never.includes(toModule)) {
      return { messageId: 'moduleDirection', data: { spec, from: fromModule, to: toModule } };
    }
  }
  const fromFeature = featureOf(from);
  const toFeature = featureOf(`${target}/`);
  if (fromFeature !== undefined && toFeature !== undefined && toFeature !== fromFeature) {
    return { messageId: 'crossFeature', data: { spec, from: fromFeature, to: toFeature } };
  }
  if (WEB_SHARED.some((dir) => from.startsWith(dir))) {
    const upper = WEB_UPPER.find((dir) => under(target, dir));
    if (upper) return { messageId: 'sharedToUpper', data: { spec, to: upper.slice(0, -1) } };
  }
  return undefined;
}

const boundariesRule = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Enforce the module boundaries of docs/architecture.md (apps, packages, server modules, web features)',
    },
    schema: [],
    messages: {
      crossApp: "'{{spec}}': {{from}} must not import from {{to}}; apps share code only through packages/*.",
      packageToApp: "'{{spec}}': packages must not import from apps ({{to}}).",
      appPackage: "'{{spec}}': apps are never imported by package name; share code through packages/*.",
      contractDeps: "'{{spec}}': packages/contract may import only zod and its own files.",
      moduleDirection:
        "'{{spec}}': server module '{{from}}' must not import from module '{{to}}' (dependencies point one way; pass what it needs in).",
      crossFeature:
        "'{{spec}}': feature '{{from}}' must not import from feature '{{to}}'; compose features in src/app (routes).",
      sharedToUpper:
        "'{{spec}}': shared web code (lib, config, components, hooks, types, locales) must not import from {{to}}.",
    },
  },
  create(context) {
    const from = repoPath(context.physicalFilename);
    if (from.startsWith('..')) return {};
    const check = (source) => {
      if (!source) return;
      let spec;
      if (source.type === 'Literal' && typeof source.value === 'string') spec = source.value;
      else if (source.type === 'TemplateLiteral' && source.expressions.length === 0)
        spec = source.quasis[0].value.cooked;
      if (spec === undefined) return;
      const violation = findViolation(from, spec);
      if (violation) context.report({ node: source, ...violation });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSImportEqualsDeclaration: (node) => {
        if (node.moduleReference.type === 'TSExternalModuleReference') check(node.moduleReference.expression);
      },
      TSImportType: (node) => check(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require') check(node.arguments[0]);
      },
    };
  },
};

const portal = { meta: { name: 'portal-local' }, rules: { boundaries: boundariesRule } };

export default defineConfig([
  globalIgnores([
    '**/node_modules/',
    '**/dist/',
    '**/data/',
    'bench/results/',
    '**/test-results/',
    '**/playwright-report/',
    'e2e/.artifacts/',
    '**/coverage/',
    '**/.tmp/',
  ]),
  {
    files: ['**/*.{js,mjs,cjs,ts,mts,cts,tsx}'],
    extends: [js.configs.recommended],
    plugins: { portal },
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: globals.node },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: { 'portal/boundaries': 'error' },
  },
  {
    // No module cycles (docs/architecture.md): import-x follows relative, aliased and workspace imports.
    files: ['**/*.{js,mjs,cjs,ts,mts,cts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // import-x reads only files with these extensions, TypeScript ones with the TypeScript parser.
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: TS_PROJECTS.map((p) => path.join(ROOT, p)),
          alwaysTryTypes: true,
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  {
    files: ['**/*.{ts,mts,cts,tsx}'],
    extends: [tseslint.configs.recommended],
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Playwright reads a fixture's dependencies from its first parameter: `async ({}, use)` is the idiom.
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    languageOptions: { globals: globals.browser },
  },
]);
