// The driver behind SQLite group commit (group-commit.ts): units taking turns in one open batch,
// the batch committed and its log synced, and the connection Kysely sees.
import type SqliteDatabase from "better-sqlite3";
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from "kysely";
import { Batch, FifoLock, run, StatementCache } from "./commit-batch.ts";
import type { LogSync } from "./wal-sync.ts";

export class GroupCommitDriver implements Driver {
  private readonly lock = new FifoLock();
  private batch: Batch | null = null;
  /** The batch committed whose log is being synced (its units not yet answered); at most one. */
  private syncing: Batch | null = null;
  private commitPending = false;
  /** Prepared statements of each connection, reused (better-sqlite3's prepare is most of a cheap query's cost). */
  readonly writes: StatementCache;
  readonly reads: StatementCache;

  constructor(
    readonly writer: SqliteDatabase.Database,
    readonly reader: SqliteDatabase.Database,
    private readonly syncLog: LogSync,
  ) {
    this.writes = new StatementCache(writer);
    this.reads = new StatementCache(reader);
  }

  async init(): Promise<void> {}

  afterCommit(callback: () => void): void {
    const pending = this.batch ?? this.syncing;
    if (pending) void pending.done.finally(callback).catch(() => {});
    else setImmediate(callback);
  }

  /** Resolves once the writes finished so far are committed and on disk (or have failed). */
  async committed(): Promise<void> {
    await (this.batch ?? this.syncing)?.done.catch(() => {});
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new UnitConnection(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as UnitConnection).begin();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as UnitConnection).commit();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as UnitConnection).rollback();
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint "${name}"`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to "${name}"`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release "${name}"`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as UnitConnection).rollback();
  }

  /** Commits what is open, then closes both connections. */
  async destroy(): Promise<void> {
    await this.lock.lock();
    try {
      await this.syncing?.done.catch(() => {});
      this.commit();
      await this.syncing?.done.catch(() => {});
      this.reader.close();
      this.writer.close();
      await this.syncLog.close();
    } finally {
      // Whoever comes after finds the connections closed, and says so.
      this.lock.unlock();
    }
  }

  /** Starts a unit: waits for its turn, opens a batch if none is open, sets the unit's savepoint. */
  async enter(): Promise<void> {
    await this.lock.lock();
    try {
      if (!this.batch) {
        this.writer.exec("begin immediate");
        this.batch = new Batch();
      }
      this.writer.exec('savepoint "unit"');
    } catch (error) {
      this.lock.unlock();
      if (this.batch) this.commitSoon();
      throw error;
    }
  }

  /**
   * Ends the unit that holds the turn, keeping its work or undoing it, and hands the turn on. The
   * batch it belongs to, whose `done` says when its work is on disk; null when it was undone.
   */
  leave(keep: boolean): Batch | null {
    const batch = this.batch;
    try {
      if (keep) this.writer.exec('release "unit"');
      else if (this.writer.inTransaction) this.writer.exec('rollback to "unit"; release "unit"');
    } catch (error) {
      // Some failures (a full disk, an I/O error) make SQLite roll back the whole transaction:
      // every unit of the batch is lost, and says so.
      this.lost(error);
    } finally {
      if (batch && !this.writer.inTransaction && this.batch === batch) this.lost(new Error("SQLite rolled the batch back"));
      this.lock.unlock();
    }
    // Even a batch whose units were all undone is ended: it holds SQLite's write lock, and reads wait for it.
    if (this.batch) this.commitSoon();
    return keep && this.batch === batch ? batch : null;
  }

  /** The batch is gone (SQLite rolled it back): its units fail, and the next unit opens a new one. */
  private lost(error: unknown): void {
    if (this.writer.inTransaction) this.writer.exec("rollback");
    this.batch?.reject(error);
    this.batch = null;
  }

  /**
   * Commits after the units already waiting for their turn, which join the batch: the more
   * writers at once, the fewer fsyncs each. setImmediate lets the requests read in this turn of
   * the event loop reach the database first. While the log of the batch before is being synced,
   * the commit waits for the end of that sync (which schedules it), and units keep joining.
   */
  private commitSoon(): void {
    if (this.commitPending) return;
    this.commitPending = true;
    if (!this.syncing) this.scheduleCommit();
  }

  private scheduleCommit(): void {
    setImmediate(() => {
      void this.lock.lock().then(() => {
        this.commitPending = false;
        try {
          this.commit();
        } finally {
          this.lock.unlock();
        }
      });
    });
  }

  /**
   * Commits the open batch and syncs the log; its units are answered once the sync has ended, and
   * the next batch is committed after that (in a later turn: the reads that waited for this batch
   * run first, and see nothing that is not on disk).
   */
  private commit(): void {
    const batch = this.batch;
    this.batch = null;
    if (!batch) return;
    try {
      this.writer.exec("commit");
    } catch (error) {
      if (this.writer.inTransaction) this.writer.exec("rollback");
      batch.reject(error);
      return;
    }
    this.syncing = batch;
    void this.syncLog
      .sync()
      .then(
        () => batch.resolve(),
        (error: unknown) => batch.reject(error),
      )
      .finally(() => {
        this.syncing = null;
        if (this.commitPending) this.scheduleCommit();
      });
  }
}

/**
 * What Kysely sees as a connection: a read outside a transaction runs on the reader at once; a
 * write outside one is a unit of its own; a transaction is one unit from begin to commit.
 */
class UnitConnection implements DatabaseConnection {
  private inUnit = false;

  constructor(private readonly driver: GroupCommitDriver) {}

  async begin(): Promise<void> {
    await this.driver.enter();
    this.inUnit = true;
  }

  async commit(): Promise<void> {
    this.inUnit = false;
    await this.driver.leave(true)?.done;
  }

  /** Undoes the transaction's work (a no-op once it has ended). */
  rollback(): void {
    if (!this.inUnit) return;
    this.inUnit = false;
    this.driver.leave(false);
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = query;
    if (this.inUnit) return run(this.driver.writes.get(sql), parameters) as QueryResult<R>;
    const read = this.driver.reads.get(sql);
    if (read.readonly) {
      await this.driver.committed();
      return run(read, parameters) as QueryResult<R>;
    }
    await this.driver.enter();
    let result: QueryResult<unknown>;
    try {
      result = run(this.driver.writes.get(sql), parameters);
    } catch (error) {
      this.driver.leave(false);
      throw error;
    }
    const batch = this.driver.leave(true);
    if (!batch) throw new Error("SQLite rolled the write back");
    await batch.done;
    return result as QueryResult<R>;
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!this.inUnit) await this.driver.committed();
    const database = this.inUnit ? this.driver.writer : this.driver.reader;
    const statement = database.prepare(query.sql);
    if (!statement.readonly) throw new Error("Only reads can be streamed");
    for (const row of statement.iterate(query.parameters)) yield { rows: [row as R] };
  }
}
