import fs from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { type Dialect, Kysely, SqliteDialect, sql } from "kysely";
import pg from "pg";
import { createLogger, type Logger } from "../log.ts";
import type { Traced } from "../observability/port.ts";
import { tracedDialect } from "./traced-dialect.ts";
import { makePrivateDirectory, PRIVATE_FILE_MODE } from "../private-files.ts";
import { SqliteGroupCommit, walSync } from "./group-commit.ts";
import { SharedServerPostgresDialect } from "./introspection.ts";
import { PostgresNotifications } from "./listener.ts";
import { PipelinedPostgresDriver } from "./postgres-driver.ts";
import type { Schema } from "./schema.ts";

export type Engine = "sqlite" | "postgres";

/**
 * The driver under Kysely (better-auth shares our Kysely, not this). On PostgreSQL, `notifications`
 * is the database's one LISTEN connection, which every channel of the process shares.
 */
export type DatabaseDriver = { engine: "sqlite"; database: SqliteDatabase.Database } | { engine: "postgres"; pool: pg.Pool; notifications: PostgresNotifications };

export interface AppDatabase {
  readonly engine: Engine;
  readonly db: Kysely<Schema>;
  readonly driver: DatabaseDriver;
  /** True when the database answers a trivial query within the time limit. */
  ping(timeoutMs?: number): Promise<boolean>;
  /**
   * Runs `callback` in a later turn of the event loop, once what has been written so far is
   * committed: in-process events announced inside a transaction (SQLite) are heard when the
   * change can be read.
   */
  afterCommit(callback: () => void): void;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { engine: "sqlite"; file: string }
  | { engine: "postgres"; url: string; searchPath?: string; maxConnections?: number };

/** The database named by DATABASE_URL, or the embedded SQLite file under DATA_DIR. */
export function databaseTarget(config: { DATABASE_URL?: string; DATABASE_POOL_SIZE?: number; DATA_DIR: string }): DatabaseTarget {
  return config.DATABASE_URL
    ? { engine: "postgres", url: config.DATABASE_URL, maxConnections: config.DATABASE_POOL_SIZE }
    : { engine: "sqlite", file: path.join(config.DATA_DIR, "storefront.sqlite") };
}

/**
 * `trace`: every SQLite query in a child span of the current one (tracing on; see
 * traced-dialect.ts); PostgreSQL's are traced by OpenTelemetry's pg instrumentation
 * (observability/otel-tracing.ts). `log`: where a lost notification connection is told (none by default).
 */
export function openDatabase(target: DatabaseTarget, options: { trace?: Traced; log?: Logger } = {}): AppDatabase {
  const dialect = (engine: Engine, inner: Dialect) => (options.trace && engine === "sqlite" ? tracedDialect(inner, options.trace) : inner);
  return target.engine === "sqlite" ? openSqlite(target.file, dialect) : openPostgres(target, dialect, options.log ?? createLogger({ NODE_ENV: "production", LOG_LEVEL: "silent" }));
}

type DialectFor = (engine: Engine, inner: Dialect) => Dialect;

function openSqlite(file: string, dialect: DialectFor): AppDatabase {
  if (file === ":memory:") {
    // Tests: nothing to make durable, and no second connection can see the same database.
    const sqlite = new SqliteDatabase(file);
    sqlite.pragma("foreign_keys = ON");
    const db = new Kysely<Schema>({ dialect: dialect("sqlite", new SqliteDialect({ database: sqlite })) });
    return withCommon({ engine: "sqlite", database: sqlite }, db, (callback) => setImmediate(callback));
  }
  createPrivately(file);
  const sqlite = new SqliteDatabase(file);
  // WAL lets the reader run beside the writer. Group commit (group-commit.ts) shares one fsync of
  // the log among all the writes waiting for it and runs it off the main thread (`walSync`), which
  // with synchronous=NORMAL (SQLite syncs at checkpoints only) makes every commit durable before
  // it is answered, as synchronous=FULL would without blocking the process.
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  const reader = new SqliteDatabase(file);
  reader.pragma("busy_timeout = 5000");
  reader.pragma("query_only = ON");
  for (const name of [file, `${file}-wal`, `${file}-shm`]) if (fs.existsSync(name)) fs.chmodSync(name, PRIVATE_FILE_MODE);
  const groupCommit = new SqliteGroupCommit(sqlite, reader, walSync(file));
  const db = new Kysely<Schema>({ dialect: dialect("sqlite", groupCommit.dialect()) });
  return withCommon({ engine: "sqlite", database: sqlite }, db, (callback) => groupCommit.afterCommit(callback));
}

/**
 * The database file holds password hashes and the auth secret: its folder (DATA_DIR) is made
 * 0700, also when it existed, and the file 0600 before SQLite opens it; SQLite gives its -wal and
 * -shm files the main file's mode, and files an older version left readable are tightened above.
 */
function createPrivately(file: string): void {
  makePrivateDirectory(path.dirname(file));
  fs.closeSync(fs.openSync(file, "a", PRIVATE_FILE_MODE));
}

function openPostgres(target: Extract<DatabaseTarget, { engine: "postgres" }>, dialect: DialectFor, log: Logger): AppDatabase {
  const pool = new pg.Pool({
    connectionString: target.url,
    max: target.maxConnections ?? 10,
    connectionTimeoutMillis: 5_000,
    // Statements written without waiting for the previous answer: what PipelinedPostgresDriver needs.
    pipeline: true,
    ...(target.searchPath ? { options: `-c search_path=${target.searchPath}` } : {}),
  });
  // An idle client losing its connection must not take the process down; the pool replaces it.
  pool.on("error", () => {});
  // Nor may a checked-out one between two queries (a transaction or an advisory lock held across
  // other work, say): pg emits that loss on the client, where nobody else listens. The query in
  // flight, or the next one, fails as it should, and the pool drops the broken client on release.
  pool.on("connect", (client) => client.on("error", () => {}));
  const postgres = new SharedServerPostgresDialect({ pool });
  const inner: Dialect = {
    createAdapter: () => postgres.createAdapter(),
    createQueryCompiler: () => postgres.createQueryCompiler(),
    createIntrospector: (db) => postgres.createIntrospector(db),
    createDriver: () => new PipelinedPostgresDriver(pool),
  };
  const db = new Kysely<Schema>({ dialect: dialect("postgres", inner) });
  const notifications = new PostgresNotifications(pool.options, log);
  // PostgreSQL delivers its notifications on commit itself.
  const database = withCommon({ engine: "postgres", pool, notifications }, db, (callback) => setImmediate(callback));
  return {
    ...database,
    async close() {
      await notifications.close();
      await database.close();
    },
  };
}

function withCommon(driver: DatabaseDriver, db: Kysely<Schema>, afterCommit: AppDatabase["afterCommit"]): AppDatabase {
  return {
    engine: driver.engine,
    db,
    driver,
    afterCommit,
    async ping(timeoutMs = 2_000) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const query = sql`select 1 as ok`.execute(db).then(
        () => true,
        () => false,
      );
      try {
        return await Promise.race([query, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => db.destroy(),
  };
}
