import {
  ColumnNode,
  TableNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

/**
 * A counter of the database's changes, bumped by every write that goes through Kysely. Read
 * caches tag what they store with the version they read it at and use it only while the version
 * is unchanged, so a write (a revoked session, a renamed building) is seen by the very next
 * request. Exact only where this process is the database's only writer and queries run one at a
 * time (the embedded SQLite set-up): see `Db.cacheable`.
 */
export class DataVersion {
  #value = 0;
  get value(): number {
    return this.#value;
  }
  bump(): void {
    this.#value++;
  }
}

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode', 'RawNode']);

/** A session's "last used" stamp changes nothing a cache holds; bumping on it would empty them every minute. */
function isSessionTouch(node: RootOperationNode): boolean {
  if (node.kind !== 'UpdateQueryNode') return false;
  const table = node.table && TableNode.is(node.table) ? node.table.table.identifier.name : null;
  const columns = (node.updates ?? []).map((u) => (ColumnNode.is(u.column) ? u.column.column.name : '?'));
  return table === 'sessions' && columns.length === 1 && columns[0] === 'last_used_at';
}

export function dataVersionPlugin(version: DataVersion): KyselyPlugin {
  const pending = new WeakSet<object>();
  return {
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      if (WRITES.has(args.node.kind) && !isSessionTouch(args.node)) {
        version.bump();
        pending.add(args.queryId);
      }
      return args.node;
    },
    // Bumped again once the write is done, so nothing read while it ran is cached as current.
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      if (pending.has(args.queryId)) {
        pending.delete(args.queryId);
        version.bump();
      }
      return args.result;
    },
  };
}
