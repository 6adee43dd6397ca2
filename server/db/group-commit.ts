import type SqliteDatabase from "better-sqlite3";
import {
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import { GroupCommitDriver } from "./group-commit-driver.ts";
import type { LogSync } from "./wal-sync.ts";

// The log sync the group commit is given, with the group commit it is for.
export { type LogSync, walSync } from "./wal-sync.ts";

/**
 * SQLite with group commit: many writers' work made durable by one fsync, which the main thread
 * never waits for.
 *
 * better-sqlite3 runs on the main thread, so a commit with `synchronous=FULL` would block the whole
 * process for the length of an fsync (0.2 ms on a quiet disk, 10 ms on a busy one), and a checkout
 * makes two. Here each transaction (and each write outside one) is a *unit*: a savepoint inside one
 * open SQLite transaction, the *batch*. Units still run one at a time, each whole (the same
 * isolation as Kysely's own SQLite driver, whose single connection takes turns), and a unit that
 * fails rolls back to its savepoint without touching the others. The batch commits once the units
 * already waiting have run; SQLite (`synchronous=NORMAL`) then only writes the log, and the log's
 * fsync (`syncLog`) runs on libuv's thread pool while the next batch fills. Only once that fsync
 * has ended does any unit's caller get its answer: nothing is acknowledged before it is on disk, as
 * with `synchronous=FULL`. A failed commit or fsync fails every unit of its batch.
 *
 * Reads outside a transaction go to a second, read-only connection, which sees only committed
 * data, and what a page shows is always on disk already: no batch commits while the log's fsync is
 * under way, and a read waits for the batch open (or being synced) when it was asked to commit
 * first, so it sees every write finished before it (a rate limiter that reads, then inserts or
 * updates, finds the row another request has just inserted) and none that is not yet on disk.
 */
export class SqliteGroupCommit {
  private readonly driver: GroupCommitDriver;

  /** `syncLog` makes what SQLite has committed so far durable (`walSync` of the database's file). */
  constructor(writer: SqliteDatabase.Database, reader: SqliteDatabase.Database, syncLog: LogSync) {
    this.driver = new GroupCommitDriver(writer, reader, syncLog);
  }

  /** The Kysely dialect over it (one per database: its driver is this object's). */
  dialect(): Dialect {
    return {
      createAdapter: (): DialectAdapter => new SqliteAdapter(),
      createQueryCompiler: (): QueryCompiler => new SqliteQueryCompiler(),
      createIntrospector: (db: Kysely<unknown>): DatabaseIntrospector => new SqliteIntrospector(db),
      createDriver: (): Driver => this.driver,
    };
  }

  /**
   * Runs `callback` once what has been written so far is committed (or has failed), and never in
   * the same turn of the event loop: in-process events announced inside a transaction reach their
   * listeners when the reader can see the change.
   */
  afterCommit(callback: () => void): void {
    this.driver.afterCommit(callback);
  }
}
