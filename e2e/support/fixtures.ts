import { test as base, expect, type ConsoleMessage } from '@playwright/test';
import { baseUrl } from './state.ts';

/**
 * Collects the page's console errors and uncaught exceptions; the test fails on any of them after
 * it ran. A test that provokes an HTTP error on purpose (a wrong password answers 401) allows that
 * response (path and status), because Chromium logs each failed response as a console error.
 */
export class ConsoleErrors {
  readonly errors: { text: string; url: string }[] = [];
  private readonly allowedResponses: { path: string; statuses: number[] }[] = [];
  private readonly allowedPatterns: RegExp[] = [];

  /** Failed responses of this API path (e.g. '/api/operators/login') with these statuses are expected. */
  allowFailedResponse(path: string, ...statuses: number[]): void {
    this.allowedResponses.push({ path, statuses });
  }

  /** Console errors matching this are expected. Use sparingly and say why at the call. */
  allow(pattern: RegExp): void {
    this.allowedPatterns.push(pattern);
  }

  onConsole(msg: ConsoleMessage): void {
    if (msg.type() !== 'error') return;
    this.errors.push({ text: msg.text(), url: msg.location().url });
  }

  onPageError(err: Error): void {
    this.errors.push({ text: `uncaught ${err.name}: ${err.message}`, url: '' });
  }

  private isAllowed({ text, url }: { text: string; url: string }): boolean {
    const status = Number(/the server responded with a status of (\d{3})/.exec(text)?.[1]);
    if (status) {
      const path = url ? new URL(url).pathname : '';
      if (this.allowedResponses.some((a) => a.path === path && a.statuses.includes(status))) return true;
    }
    return this.allowedPatterns.some((p) => p.test(text));
  }

  unexpected(): string[] {
    return this.errors.filter((e) => !this.isAllowed(e)).map((e) => (e.url ? `${e.text} (at ${e.url})` : e.text));
  }
}

export const test = base.extend<{ consoleErrors: ConsoleErrors }>({
  // The server's port is chosen at run time by global-setup.
  baseURL: async ({}, use) => {
    await use(baseUrl());
  },
  consoleErrors: async ({}, use) => {
    await use(new ConsoleErrors());
  },
  page: async ({ page, consoleErrors }, use) => {
    page.on('console', (msg) => consoleErrors.onConsole(msg));
    page.on('pageerror', (err) => consoleErrors.onPageError(err));
    await use(page);
    expect(consoleErrors.unexpected(), 'console errors in the page').toEqual([]);
  },
});

export { expect };
