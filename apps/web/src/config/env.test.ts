import { afterEach, describe, expect, it } from 'vitest';
import { apiBase } from './env';

describe('apiBase', () => {
  afterEach(() => document.head.querySelector('meta[name="portal-api-base"]')?.remove());

  it('follows the base the server wrote into the page', () => {
    const meta = document.createElement('meta');
    meta.name = 'portal-api-base';
    meta.content = '/portal-api/';
    document.head.append(meta);
    expect(apiBase()).toBe('/portal-api');
  });

  it('falls back to the build-time base', () => {
    expect(apiBase()).toBe('/api');
  });
});
