import type { MapDocument } from '@portal/contract';

/** One undoable change of the document: small, and its own inverse. */
export interface Command {
  /** What it did, for the history list and tests ("add waypoint", "move 3 waypoints"). */
  label: string;
  apply(doc: MapDocument): MapDocument;
  revert(doc: MapDocument): MapDocument;
}

export type Collection = keyof MapDocument;
type Item<K extends Collection> = MapDocument[K][number];

const withCollection = <K extends Collection>(doc: MapDocument, key: K, items: MapDocument[K]): MapDocument => ({
  ...doc,
  [key]: items,
});

/** Adds items at the end of a collection. */
export function addItems<K extends Collection>(key: K, items: Array<Item<K>>, label = `add ${key}`): Command {
  const ids = new Set(items.map((i) => i.id));
  return {
    label,
    apply: (doc) => withCollection(doc, key, [...doc[key], ...items] as MapDocument[K]),
    revert: (doc) => withCollection(doc, key, doc[key].filter((i) => !ids.has(i.id)) as MapDocument[K]),
  };
}

/** Removes items, remembering where they were so undo puts them back in place. */
export function removeItems<K extends Collection>(doc: MapDocument, key: K, ids: ReadonlySet<number>): Command {
  const removed: Array<{ index: number; item: Item<K> }> = [];
  doc[key].forEach((item, index) => {
    if (ids.has(item.id)) removed.push({ index, item });
  });
  return {
    label: `remove ${key}`,
    apply: (d) => withCollection(d, key, d[key].filter((i) => !ids.has(i.id)) as MapDocument[K]),
    revert: (d) => {
      const out: Array<Item<K>> = [...d[key]];
      for (const { index, item } of removed) out.splice(index, 0, item);
      return withCollection(d, key, out as MapDocument[K]);
    },
  };
}

/** Replaces items by id (one pass, so dragging 2,000 waypoints stays linear). */
export function updateItems<K extends Collection>(
  key: K,
  changes: ReadonlyArray<{ before: Item<K>; after: Item<K> }>,
  label = `update ${key}`,
): Command {
  const swap = (doc: MapDocument, pick: (c: { before: Item<K>; after: Item<K> }) => Item<K>) => {
    const byId = new Map(changes.map((c) => [c.after.id, pick(c)]));
    return withCollection(doc, key, doc[key].map((i) => byId.get(i.id) ?? i) as MapDocument[K]);
  };
  return { label, apply: (doc) => swap(doc, (c) => c.after), revert: (doc) => swap(doc, (c) => c.before) };
}

export const updateItem = <K extends Collection>(key: K, before: Item<K>, after: Item<K>, label?: string): Command =>
  updateItems(key, [{ before, after }], label);

/** Several commands as one undo step. */
export function composite(label: string, commands: readonly Command[]): Command {
  return {
    label,
    apply: (doc) => commands.reduce((d, c) => c.apply(d), doc),
    revert: (doc) => commands.reduceRight((d, c) => c.revert(d), doc),
  };
}
