import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * The Mantine components of the first screen (shell and /auth/login), with what they build on, go to
 * one shared chunk: otherwise each becomes its own tiny chunk, which compresses worse and costs a
 * request. Every signed-in screen uses them too. Not NativeSelect: it imports all of Combobox (and
 * floating-ui) for side effects, which this group would then pull in.
 */
const firstScreenComponents = [
  'ActionIcon',
  'Alert',
  'Anchor',
  'Box',
  'Button',
  'Center',
  'CloseButton',
  'Group',
  'Input',
  'InputBase',
  'Loader',
  'Paper',
  'PasswordInput',
  'Stack',
  'Text',
  'TextInput',
  'Title',
  'Transition',
  'UnstyledButton',
];
const firstScreenMantine = new RegExp(
  String.raw`[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](${firstScreenComponents.join('|')})[\\/]`,
);

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    host: '127.0.0.1',
    proxy: { '/api': { target: 'http://127.0.0.1:8080', ws: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: 'mantine', test: firstScreenMantine }] } },
      treeshake: {
        // The contract (packages/contract) only declares zod schemas and constants: a screen bundles
        // the schemas it uses, not all of them (its package.json does not say "sideEffects": false).
        moduleSideEffects: (id: string) => (/[\\/]packages[\\/]contract[\\/]src[\\/]/.test(id) ? false : undefined),
      },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/testing/setup.ts'],
    // jsdom renders of whole screens take seconds on a busy 2-core machine; a test's time is never
    // what it checks, so the limit only has to catch a test that hangs.
    testTimeout: 30_000,
  },
});
