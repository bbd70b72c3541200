import { SqliteDialect, SqliteQueryCompiler, type OperatorNode, type QueryCompiler } from 'kysely';

/**
 * SQLite in the words the portal's SQL uses on both databases. Search is `ilike` (ignores case):
 * PostgreSQL has it; SQLite's `like` already ignores ASCII case, so `ilike` is compiled as `like`
 * there. The difference stays here, in the data layer, at no cost per query (no tree rewrite).
 */
class PortalSqliteQueryCompiler extends SqliteQueryCompiler {
  protected override visitOperator(node: OperatorNode): void {
    if (node.operator === 'ilike') this.append('like');
    else if (node.operator === 'not ilike') this.append('not like');
    else super.visitOperator(node);
  }
}

export class PortalSqliteDialect extends SqliteDialect {
  override createQueryCompiler(): QueryCompiler {
    return new PortalSqliteQueryCompiler();
  }
}
