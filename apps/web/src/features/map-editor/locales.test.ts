import { describe, expect, it } from 'vitest';
import { en } from '@/locales/en';
import { mapEditorEn } from '@/locales/en/map-editor';
import { mapEditorJa } from '@/locales/ja/map-editor';

type Tree = { [key: string]: string | Tree };
const flatten = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : flatten(v, `${prefix}${k}.`)));

describe('map editor texts', () => {
  it('have the same keys in ja and en, none empty, none shared with the core texts', () => {
    expect(flatten(mapEditorJa).sort()).toEqual(flatten(mapEditorEn).sort());
    for (const top of Object.keys(mapEditorEn)) expect(Object.keys(en)).not.toContain(top);
  });

  it("translate the server's map validation keys (here, or in the core texts)", () => {
    const own = Object.keys(mapEditorEn.mapEditor.validation);
    const core = Object.keys(en.validation);
    for (const key of ['outsideMap', 'staleMap', 'routeTooShort', 'polygon', 'angle'])
      expect(own.includes(key) || core.includes(key), key).toBe(true);
  });
});
