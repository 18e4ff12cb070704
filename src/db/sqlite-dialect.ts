// The embedded store: better-sqlite3 in WAL mode, booleans bound as 0/1.
import {
  Kysely,
  OperationNodeTransformer,
  SqliteDialect,
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type PrimitiveValueListNode,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type SqliteDatabase,
  type ValueNode,
} from 'kysely';
import type { Database } from './database.js';
import type { StoreDialect } from './dialect.js';
import type { HotParam, HotStatements } from './hot-statements.js';
import { SqliteDriver, type SqliteConnection, type SqliteStatement } from './sqlite-driver.js';
import { preparePrivately, type ModeChange } from './sqlite-file-modes.js';

/** better-sqlite3 refuses to bind JS booleans; SQLite stores them as 0/1 anyway. */
class BooleanToInteger extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    return typeof node.value === 'boolean' ? { ...node, value: node.value ? 1 : 0 } : super.transformValue(node);
  }
  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return { ...node, values: node.values.map((v) => (typeof v === 'boolean' ? Number(v) : v)) };
  }
}

class SqliteBooleanPlugin implements KyselyPlugin {
  readonly #transformer = new BooleanToInteger();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

export const sqliteDialect: StoreDialect = {
  name: 'sqlite',
  rowLocks: false,
  bytewiseCollation: 'BINARY',
  isUniqueViolation: (error) =>
    error instanceof Error &&
    'code' in error &&
    (error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'),
  isUnavailable: (error) =>
    error instanceof Error && 'code' in error && (error.code === 'SQLITE_BUSY' || error.code === 'SQLITE_CANTOPEN'),
  ping: async (db) => {
    await sql`select 1`.execute(db);
  },
};

/**
 * Kysely prepares every query anew, and compiling SQL was the largest single cost of a request. The
 * handful of distinct statements a server runs are kept compiled, least recently used out first.
 * (Hearth never streams results, so a cached statement is never left mid-iteration.)
 */
function withStatementCache(database: SqliteConnection, size = 512): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(text) {
      let statement = cache.get(text);
      if (statement) {
        cache.delete(text);
      } else {
        statement = database.prepare(text);
        if (cache.size >= size) cache.delete(cache.keys().next().value ?? '');
      }
      cache.set(text, statement);
      return statement;
    },
  };
}

/** Hot reads on the same connection as Kysely: better-sqlite3 statements kept by their SQL text. */
function hotStatements(database: SqliteConnection): HotStatements {
  const statements = new Map<string, SqliteStatement>();
  const dataVersion = database.prepare('pragma data_version').pluck();
  return {
    synchronous: true,
    all<T>(text: string, params: readonly HotParam[]): T[] {
      let statement = statements.get(text);
      if (!statement) {
        statement = database.prepare(text);
        statements.set(text, statement);
      }
      return statement.all(...params) as T[];
    },
    changeMark: () => dataVersion.get() as number,
  };
}

export function openSqlite(path: string): { db: Kysely<Database>; hot: HotStatements; tightened: ModeChange[] } {
  // Before SQLite opens the file: the -wal and -shm files it makes take the main file's mode.
  const tightened = path === ':memory:' ? [] : preparePrivately(path);
  const database = new SqliteDriver(path);
  // 8 KB pages for a new file (an existing one keeps its own): rendered answers of 2-3 KB pack three to a page
  // instead of one to a 4 KB page, which keeps the file smaller
  // (measured: bench/analysis.md, 'Figures behind the code's choices').
  try {
    database.pragma('page_size = 8192');
    database.pragma('journal_mode = WAL');
  } catch (error) {
    database.close();
    // An import into a new store holds it alone until it commits (import/write-sqlite-journal.ts).
    if (sqliteDialect.isUnavailable(error))
      throw new Error(
        `${path} is being written by another process (an import into a new store); try again once it ends`,
      );
    throw error;
  }
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  // 32 MB of page cache (the default is 2 MB): the hot pages of a large store stay in this process; the rest are
  // in the OS's cache, a read away.
  database.pragma('cache_size = -32768');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(database) }),
    plugins: [new SqliteBooleanPlugin()],
  });
  return { db, hot: hotStatements(database), tightened };
}
