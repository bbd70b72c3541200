import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { busyStore } from '@/lib/busy';
import { initI18n } from '@/lib/i18n';
import { sessionStore } from '@/lib/session';
import { en } from '@/locales/en';
import { ja } from '@/locales/ja';

// findBy/waitFor wait up to 5 s (default 1 s): the suite runs many files at once on a 2-core machine,
// where a lazily loaded route can take longer than a second to appear.
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks what Mantine measures with.
if (!window.matchMedia) {
  window.matchMedia = (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  });
}
class NoopResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
if (!('ResizeObserver' in globalThis)) Object.assign(globalThis, { ResizeObserver: NoopResizeObserver });
window.HTMLElement.prototype.scrollIntoView = () => undefined;
window.scrollTo = () => undefined;

let consoleErrors: unknown[][] = [];

beforeEach(() => {
  window.localStorage.clear();
  sessionStore.reload();
  // The app downloads one language at a time; tests have both at hand.
  initI18n('en', { en, ja });
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  while (busyStore.isBusy()) busyStore.end();
  // "No console errors" is part of the product's quality bar.
  if (consoleErrors.length > 0) throw new Error(`console.error was called: ${JSON.stringify(consoleErrors[0])}`);
});
